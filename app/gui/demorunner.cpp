#include "demorunner.h"

#include "common/error.h"
#include "newrundialog.h"
#include "runprocess.h"
#include "runsession.h"
#include "startpage.h"
#include "store/runreader.h"

#include <QDir>
#include <QFileInfo>
#include <QProgressBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include <cmath>

namespace kvl {

DemoRunner::DemoRunner(StartPage* start, QStatusBar* status, RunSession* session, QObject* parent)
    : QObject(parent), m_start(start), m_session(session), m_process(new RunProcess(this)),
      m_progress(new QProgressBar), m_cancel(new QToolButton), m_poll(new QTimer(this))
{
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the run; finished samples stay in the run file"));
    m_cancel->hide();
    status->addPermanentWidget(m_progress);
    status->addPermanentWidget(m_cancel);
    m_poll->setInterval(1000);
    connect(m_poll, &QTimer::timeout, this, &DemoRunner::pollFile);
    connect(m_cancel, &QToolButton::clicked, this, &DemoRunner::cancel);
    connect(m_start, &StartPage::demoRequested, this, [this] { this->start(); });
    connect(m_start, &StartPage::cancelRequested, this, &DemoRunner::cancel);
    connect(m_process, &RunProcess::progressChanged, this, &DemoRunner::showProgress);
    connect(m_process, &RunProcess::finished, this, &DemoRunner::onFinished);
    connect(m_process, &RunProcess::failedToStart, this, [this](const QString& text) {
        m_start->setRunning(false);
        m_start->setMessage(text);
        hideProgress();
    });
}

QString DemoRunner::path()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/demo.kvl");
}

void DemoRunner::start(const QString& program)
{
    if (m_process->isRunning())
        return;
    const QString out = path();
    QDir().mkpath(QFileInfo(out).absolutePath());
    m_opened = false;
    m_start->setRunning(true);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancel->show();
    m_process->start(program.isEmpty() ? NewRunDialog::findCli() : program,
                     {QStringLiteral("demo"), QStringLiteral("--out"), out});
    // Progress lines are the fast path; the file itself is the fallback, for a child
    // that reports no progress on stdout.
    m_poll->start();
}

void DemoRunner::cancel()
{
    if (m_process->isRunning())
        m_process->cancel();
}

void DemoRunner::hideProgress()
{
    m_progress->hide();
    m_cancel->hide();
}

void DemoRunner::pollFile()
{
    if (m_opened || !m_process->isRunning() || !m_session->canRead()) {
        m_poll->stop();
        return;
    }
    if (!QFileInfo::exists(path()))
        return;
    qint64 samples = 0;
    try {
        samples = RunReader(path()).sampleCount();
    } catch (const Error&) {
        return; // still being created
    }
    if (samples <= 0)
        return;
    m_start->setMessage(tr("Demo: %n sample(s) finished", nullptr, int(samples)));
    m_opened = true;
    m_poll->stop();
    emit openRequested(path());
}

void DemoRunner::showProgress(const RunProgress& p)
{
    QString text = tr("Demo: %1 of %2 samples").arg(p.done).arg(p.total);
    if (!std::isnan(p.etaS))
        text += tr(", about %1 s left").arg(qRound(p.etaS));
    m_start->setProgress(p.done, p.total, text);
    if (p.total > 0) {
        m_progress->setRange(0, p.total);
        m_progress->setValue(p.done);
    }
    m_progress->setFormat(QStringLiteral("%1/%2").arg(p.done).arg(p.total));
    // Land on the overview as soon as the first samples are in; the watcher refreshes
    // the views as the rest land.
    if (!m_opened && p.done > 0 && QFileInfo::exists(path()) && m_session->canRead()) {
        m_opened = true;
        emit openRequested(path());
    }
}

void DemoRunner::onFinished(bool ok, int exitCode, bool cancelled)
{
    m_start->setRunning(false);
    hideProgress();
    m_poll->stop();
    QString text = ok          ? tr("Demo finished.")
                   : cancelled ? tr("Demo cancelled; finished samples are kept.")
                               : tr("Demo failed (exit code %1).").arg(exitCode);
    if (!ok && !cancelled && !m_process->stderrText().trimmed().isEmpty())
        text +=
            QLatin1Char('\n') + m_process->stderrText().trimmed().section(QLatin1Char('\n'), -3);
    m_start->setMessage(text);
    emit message(text);
    if (!QFileInfo::exists(path()) || !m_session->canRead())
        return;
    if (m_session->path() == path())
        emit refreshRequested();
    else if (ok)
        emit openRequested(path());
}

} // namespace kvl
