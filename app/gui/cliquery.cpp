#include "cliquery.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

namespace kvl {

CliQuery::CliQuery(QObject* parent) : QObject(parent) {}

CliQuery::~CliQuery()
{
    drop();
}

void CliQuery::drop()
{
    if (!m_process)
        return;
    QProcess* p = m_process;
    m_process = nullptr;
    p->disconnect(this);
    if (p->state() != QProcess::NotRunning) {
        p->kill();
        p->waitForFinished(1000);
    }
    p->deleteLater();
}

void CliQuery::ask(const QString& program, const QStringList& arguments)
{
    drop();
    auto* p = new QProcess(this);
    m_process = p;
    connect(p, &QProcess::finished, this, [this, p](int exitCode, QProcess::ExitStatus status) {
        if (p != m_process)
            return;
        const QByteArray out = p->readAllStandardOutput();
        const QStringList errLines =
            QString::fromUtf8(p->readAllStandardError()).trimmed().split(QLatin1Char('\n'));
        m_process = nullptr;
        p->deleteLater();
        const bool ok = status == QProcess::NormalExit && exitCode == 0;
        QString error = errLines.last().trimmed();
        if (!ok && error.isEmpty())
            error = tr("%1 stopped with exit code %2").arg(p->program()).arg(exitCode);
        emit answered(ok, out, error);
    });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || p != m_process)
            return;
        m_process = nullptr;
        p->deleteLater();
        emit answered(false, {}, tr("Cannot start %1: %2").arg(p->program(), p->errorString()));
    });
    p->start(program, arguments, QIODevice::ReadOnly);
}

bool CliQuery::waitForAnswer(int timeoutMs)
{
    if (!m_process)
        return true;
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    connect(this, &CliQuery::answered, &loop, &QEventLoop::quit);
    loop.exec();
    return !m_process;
}

} // namespace kvl
