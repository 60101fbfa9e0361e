#pragma once

// RunProgress and the progress-line keys live in kvlens_common (common/runprogress.h),
// where the sweep that writes the lines can use the same definition.
#include "common/runprogress.h"
