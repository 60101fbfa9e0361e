#pragma once

#include "runprogress.h"

#include <QObject>
#include <QStringList>

class QTimer;

namespace kvl {

class RunProcess;

// One `kvlens-cli` sweep in a child process as the window follows it: started (or resumed,
// the CLI decides from the file), its progress, Cancel (finished samples stay in the file),
// and the run file announced once per start as soon as samples land in it, from the
// progress lines or, for a child that prints none, from the file itself, so that the views
// fill in while the sweep runs. The New run dialog and the start page's demo both launch
// through it.
class RunLauncher : public QObject
{
    Q_OBJECT
  public:
    explicit RunLauncher(QObject* parent = nullptr);

    // False (nothing started) while a run is going.
    bool start(const QString& program, const QStringList& arguments, const QString& outputPath);
    void cancel();
    bool isRunning() const;
    RunProcess* process() const { return m_process; }
    const QString& outputPath() const { return m_output; }

  signals:
    void progressChanged(const kvl::RunProgress& progress);
    // The output file holds finished samples: open it (once per start).
    void runFileReady(const QString& path);
    void finished(bool ok, int exitCode, bool cancelled);
    void failedToStart(const QString& message);

  private:
    void announceIfReady(qint64 samplesDone);
    void pollFile();

    RunProcess* m_process;
    QTimer* m_poll;
    QString m_output;
    bool m_announced = false;
};

} // namespace kvl
