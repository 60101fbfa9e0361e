#pragma once

#include "runsession.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace kvl {

// The window's open runs, one RunSession each, and the one shown (current). A run shown for
// the first time gets its own session, carrying over the selection of the run shown
// before it (heads, suite, overlap pair, signature); shown again, it comes back from its
// own session with its focus, its selection and what was read of it. Pages, toolbar and
// window bind to the current session and bind again on currentChanged.
//
// With no run shown the current session is an idle one (no path), so that whoever binds
// always has a session to read: it keeps the last run's selection for the next one.
class RunSessions : public QObject
{
    Q_OBJECT
  public:
    explicit RunSessions(QObject* parent = nullptr);

    // How every session reads run files; without them, opening a run fails naming it.
    void setStages(const RunStages& stages);
    bool canRead() const { return bool(m_stages.summary); }

    // Never null.
    RunSession* current() const { return m_current; }
    // The session of an open run; nullptr for a run not shown in this window (or closed).
    RunSession* find(const QString& path) const { return m_byPath.value(path, nullptr); }
    // The runs with a session, in no particular order.
    QStringList paths() const { return m_byPath.keys(); }

    // Makes the run's session current (created the first time) and opens it.
    RunSession* open(const RunRequest& request);
    // Shows data made without a file (tests, the view benchmark) as the run data.path.
    RunSession* present(const RunViewData& data);
    // The current run is closed: its session says so (every page clears), then goes; the
    // idle session takes its place with the closed run's selection.
    void closeCurrent();
    // An open of `path` was refused: its session goes, and the run shown before it (if any)
    // is shown again.
    void discard(const QString& path);

  signals:
    // Emitted before the new current session reads or delivers anything: bind to it here.
    void currentChanged(RunSession* current, RunSession* previous);

  private:
    RunSession* sessionFor(const QString& path);
    void makeCurrent(RunSession* session);

    RunStages m_stages;
    RunSession* m_idle;
    RunSession* m_current;
    // The run shown before the current one, for discard().
    QPointer<RunSession> m_previous;
    QHash<QString, RunSession*> m_byPath;
};

} // namespace kvl
