#pragma once

#include "run/sweepprogress.h"

#include <atomic>

namespace kvl {

// How a sweep in a terminal or under the GUI reports progress: one JSON line per
// finished sample on stdout (what the GUI's RunProcess reads), and a progress bar
// redrawn on stderr when stderr is a terminal.
class SweepConsole
{
  public:
    // jsonLines: print the JSON lines on stdout; bar: draw the bar on a terminal
    // (it is never drawn into a pipe or a file).
    SweepConsole(bool jsonLines, bool bar);
    ~SweepConsole();

    void report(const SweepProgress& progress);
    // Ends the bar's line.
    void finish();

  private:
    bool m_jsonLines;
    bool m_bar;
    bool m_barDrawn = false;
};

// SIGINT and SIGTERM set `flag` (the sweep stops before its next configuration and
// keeps every committed sample); a second signal terminates at once.
void installStopSignals(std::atomic<bool>& flag);

} // namespace kvl
