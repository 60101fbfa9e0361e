#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QStringList>

namespace kvl {

// One short `kvlens-cli` question (info, presses --json, tasks list --json, tasks
// validate) asked in a child process without blocking the GUI. Asking again while
// an answer is pending drops the old question: only the latest answer counts.
class CliQuery : public QObject
{
    Q_OBJECT
  public:
    explicit CliQuery(QObject* parent = nullptr);
    ~CliQuery() override;

    void ask(const QString& program, const QStringList& arguments);
    bool isPending() const { return m_process != nullptr; }
    // Blocks until the pending answer arrived (tests); false on timeout.
    bool waitForAnswer(int timeoutMs = 30000);

  signals:
    // ok: exit code 0. `error` is the child's last stderr line, or why it did not start.
    void answered(bool ok, const QByteArray& output, const QString& error);

  private:
    void drop();
    QProcess* m_process = nullptr;
};

} // namespace kvl
