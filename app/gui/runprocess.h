#pragma once

#include "runprogress.h"

#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

namespace kvl {

// Runs `kvlens-cli run ...` (or any program speaking its progress protocol) as
// a child process: the engine's crashes and memory stay out of the GUI. Parses
// one JSON progress line per finished sample from the child's stdout.
class RunProcess : public QObject
{
    Q_OBJECT
  public:
    explicit RunProcess(QObject* parent = nullptr);
    ~RunProcess() override;

    void start(const QString& program, const QStringList& arguments);
    bool isRunning() const;
    // Terminates the child (SIGTERM; the store keeps every finished sample),
    // and kills it if it has not exited after `killAfterMs`.
    void cancel(int killAfterMs = 5000);
    bool wasCancelled() const { return m_cancelled; }

    RunProgress lastProgress() const { return m_last; }
    QString stderrText() const { return m_stderr; }
    qint64 processId() const { return m_process.processId(); }

  signals:
    void progressChanged(const kvl::RunProgress& progress);
    // Non-progress output lines (stdout lines that are not progress JSON, and stderr).
    void logLineAvailable(const QString& line);
    // exitCode is the child's; `ok` = exited normally with code 0 and not cancelled.
    void finished(bool ok, int exitCode, bool cancelled);
    void failedToStart(const QString& message);

  private:
    void readStdout();
    void readStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess m_process;
    QByteArray m_stdoutBuffer;
    QByteArray m_stderrBuffer;
    QString m_stderr;
    RunProgress m_last;
    bool m_cancelled = false;
    // The kill fallback of cancel(); stopped when the child ends, so that it never
    // hits a run started after it (a Resume right after Cancel).
    QTimer m_killTimer;
};

} // namespace kvl
