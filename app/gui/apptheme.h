#pragma once

#include "views/viewpalette.h"

namespace kvl {

// The application's palette for a theme: Fusion with a dark palette, or the style's own.
void applyApplicationTheme(Theme theme);

} // namespace kvl
