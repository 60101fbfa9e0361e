#pragma once

#include "runsession.h"
#include "sessionstate.h"

#include <QObject>

#include <optional>

namespace kvl {

class MainWindow;
class OpenRuns;

// What the window remembers between sessions (SessionState in a small JSON file): theme,
// display options, geometry, the page shown, the open runs and the selection of the run
// shown. Restoring lists the runs, opens the one shown once this build can read run files,
// and gives each page its part (zoom, the inspected row) once that run's details are in.
class SessionKeeper : public QObject
{
    Q_OBJECT
  public:
    // `path` empty: no session file (tests, screenshots); state() and restore() still work.
    SessionKeeper(MainWindow& window, OpenRuns& openRuns, const QString& path);

    SessionState state() const;
    void restore(const SessionState& state);
    // Restores the session file, when there is one; a message names what went wrong.
    void load();
    // Writes the session file, when there is one (the window closes).
    void save() const;
    // Run files can be read now: the restored run that waited is opened.
    void openWaitingRun();

  private:
    // The restore waits on the session of the run shown: the overlap ratio before the
    // pages draw its overview, the pages' part once its details are in.
    void follow(RunSession* session, RunSession* previous);

    MainWindow& m_window;
    OpenRuns& m_openRuns;
    QString m_path;
    SessionState m_remembered; // what the file said, for what no page owns
    // What the restore left to do with its run: open it (once run files can be read,
    // while m_waiting), then give the pages their part once its details are in.
    std::optional<SessionState> m_pending;
    bool m_waiting = false;
};

} // namespace kvl
