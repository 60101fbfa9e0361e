#include "runlauncher.h"

#include "common/error.h"
#include "runprocess.h"
#include "store/runreader.h"

#include <QFileInfo>
#include <QTimer>

namespace kvl {

RunLauncher::RunLauncher(QObject* parent)
    : QObject(parent), m_process(new RunProcess(this)), m_poll(new QTimer(this))
{
    m_poll->setInterval(1000);
    connect(m_poll, &QTimer::timeout, this, &RunLauncher::pollFile);
    connect(m_process, &RunProcess::progressChanged, this, [this](const RunProgress& p) {
        emit progressChanged(p);
        announceIfReady(p.done);
    });
    connect(m_process, &RunProcess::finished, this, [this](bool ok, int code, bool cancelled) {
        m_poll->stop();
        emit finished(ok, code, cancelled);
    });
    connect(m_process, &RunProcess::failedToStart, this, [this](const QString& message) {
        m_poll->stop();
        emit failedToStart(message);
    });
}

bool RunLauncher::start(const QString& program, const QStringList& arguments,
                        const QString& outputPath)
{
    if (m_process->isRunning())
        return false;
    m_output = outputPath;
    m_announced = false;
    m_process->start(program, arguments);
    m_poll->start();
    return true;
}

void RunLauncher::cancel()
{
    if (m_process->isRunning())
        m_process->cancel();
}

bool RunLauncher::isRunning() const
{
    return m_process->isRunning();
}

void RunLauncher::announceIfReady(qint64 samplesDone)
{
    if (m_announced || samplesDone <= 0 || !QFileInfo::exists(m_output))
        return;
    m_announced = true;
    m_poll->stop();
    emit runFileReady(m_output);
}

void RunLauncher::pollFile()
{
    // The fallback for a child that reports no progress on stdout.
    if (m_announced || !m_process->isRunning()) {
        m_poll->stop();
        return;
    }
    if (!QFileInfo::exists(m_output))
        return;
    qint64 samples = 0;
    try {
        samples = RunReader(m_output).sampleCount();
    } catch (const Error&) {
        return; // still being created
    }
    announceIfReady(samples);
}

} // namespace kvl
