#pragma once

#include <QObject>

class QProgressBar;
class QStatusBar;
class QToolButton;

namespace kvl {

class RunLauncher;
class RunProcess;
class RunSessions;
class StartPage;
struct RunProgress;

// The start page's demo: `kvlens-cli demo --out <path()>` in a child process, its
// progress on the start page and in the status bar (with a Cancel button), and the run
// opened as soon as its first samples land, so the first five minutes show views filling
// in rather than a spinner.
class DemoRunner : public QObject
{
    Q_OBJECT
  public:
    DemoRunner(StartPage* start, QStatusBar* status, const RunSessions* sessions, QObject* parent);

    // `program` empty: the kvlens-cli found next to the app.
    void start(const QString& program = {});
    void cancel();
    RunProcess* process() const;
    static QString path();

  signals:
    // The demo's file holds samples: open it (or re-read it, when it is open).
    void openRequested(const QString& path);
    void refreshRequested();
    void message(const QString& text);

  private:
    void showProgress(const RunProgress& progress);
    void onFinished(bool ok, int exitCode, bool cancelled);
    void hideProgress();

    StartPage* m_start;
    const RunSessions* m_sessions; // which run is shown
    RunLauncher* m_launcher;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
};

} // namespace kvl
