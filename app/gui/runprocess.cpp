#include "runprocess.h"

#include <QTimer>

namespace kvl {

RunProcess::RunProcess(QObject* parent) : QObject(parent)
{
    m_killTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        if (isRunning())
            m_process.kill();
    });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &RunProcess::readStdout);
    connect(&m_process, &QProcess::readyReadStandardError, this, &RunProcess::readStderr);
    connect(&m_process, &QProcess::finished, this, &RunProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit failedToStart(
                tr("Cannot start %1: %2").arg(m_process.program(), m_process.errorString()));
    });
}

RunProcess::~RunProcess()
{
    // Never leave an orphaned sweep behind when the window closes.
    if (isRunning()) {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
}

void RunProcess::start(const QString& program, const QStringList& arguments)
{
    if (isRunning())
        return;
    m_killTimer.stop();
    m_cancelled = false;
    m_last = {};
    m_stdoutBuffer.clear();
    m_stderrBuffer.clear();
    m_stderr.clear();
    m_process.setProgram(program);
    m_process.setArguments(arguments);
    m_process.start(QIODevice::ReadOnly);
}

bool RunProcess::isRunning() const
{
    return m_process.state() != QProcess::NotRunning;
}

void RunProcess::cancel(int killAfterMs)
{
    if (!isRunning())
        return;
    m_cancelled = true;
    m_process.terminate();
    m_killTimer.start(killAfterMs);
}

void RunProcess::readStdout()
{
    m_stdoutBuffer += m_process.readAllStandardOutput();
    qsizetype newline;
    // Only whole lines are parsed; a line split across reads waits for its end.
    while ((newline = m_stdoutBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_stdoutBuffer.left(newline);
        m_stdoutBuffer.remove(0, newline + 1);
        if (const auto progress = RunProgress::parse(line)) {
            m_last = *progress;
            emit progressChanged(m_last);
        } else if (!line.trimmed().isEmpty()) {
            emit logLineAvailable(QString::fromUtf8(line.trimmed()));
        }
    }
}

void RunProcess::readStderr()
{
    m_stderrBuffer += m_process.readAllStandardError();
    qsizetype newline;
    while ((newline = m_stderrBuffer.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_stderrBuffer.left(newline)).trimmed();
        m_stderrBuffer.remove(0, newline + 1);
        m_stderr += line + QLatin1Char('\n');
        if (!line.isEmpty())
            emit logLineAvailable(line);
    }
}

void RunProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer.stop();
    readStdout();
    readStderr();
    // A last line without a trailing newline is still progress or log text.
    if (!m_stdoutBuffer.isEmpty()) {
        m_stdoutBuffer += '\n';
        readStdout();
    }
    const bool ok = !m_cancelled && status == QProcess::NormalExit && exitCode == 0;
    emit finished(ok, exitCode, m_cancelled);
}

} // namespace kvl
