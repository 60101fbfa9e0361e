#pragma once

#include "runviewdata.h"

namespace kvl {

// Synthetic data for the hidden --demo-screenshot option, a development aid to
// look at every view without a run file. It is labelled DEMO in the run name and
// provenance and never shown by the normal UI.
RunViewData makeDemoData();

} // namespace kvl
