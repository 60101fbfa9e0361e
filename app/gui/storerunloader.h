#pragma once

#include "runviewdata.h"

namespace kvl {

// The RunLoader of the app: reads a .kvl with RunReader (read-only, safe while a
// sweep writes it) and builds every view's values. Throws kvl::Error naming the
// file and the problem for a foreign or damaged file. Thread-safe: each call opens
// its own reader, so the window calls it on a worker thread.
RunViewData loadRunViewData(const RunRequest& request);

} // namespace kvl
