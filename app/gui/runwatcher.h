#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace kvl {

class RunReader;

// Polls a run file that another process (a `kvlens-cli run` child, a cluster job)
// may be writing: emits changed() when a commit landed since the last poll
// (SQLite's data_version). The file need not exist yet: the watcher opens it once
// it appears, and reports that as a change.
class RunWatcher : public QObject
{
    Q_OBJECT
  public:
    explicit RunWatcher(QObject* parent = nullptr);
    ~RunWatcher() override;

    void watch(const QString& path);
    void stop();
    QString path() const { return m_path; }
    void setInterval(int ms) { m_timer.setInterval(ms); }
    int interval() const { return m_timer.interval(); }

    // One poll now (the timer calls it); true when the file changed.
    bool poll();

  signals:
    void changed(const QString& path);

  private:
    QString m_path;
    std::unique_ptr<RunReader> m_reader;
    qint64 m_version = -1;
    QTimer m_timer;
};

} // namespace kvl
