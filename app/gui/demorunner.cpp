#include "demorunner.h"

#include "newrundialog.h"
#include "runlauncher.h"
#include "runprocess.h"
#include "runsessions.h"
#include "startpage.h"

#include <QDir>
#include <QFileInfo>
#include <QProgressBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolButton>

#include <cmath>

namespace kvl {

DemoRunner::DemoRunner(StartPage* start, QStatusBar* status, const RunSessions* sessions,
                       QObject* parent)
    : QObject(parent), m_start(start), m_sessions(sessions), m_launcher(new RunLauncher(this)),
      m_progress(new QProgressBar), m_cancel(new QToolButton)
{
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the run; finished samples stay in the run file"));
    m_cancel->hide();
    status->addPermanentWidget(m_progress);
    status->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &DemoRunner::cancel);
    connect(m_start, &StartPage::demoRequested, this, [this] { this->start(); });
    connect(m_start, &StartPage::cancelRequested, this, &DemoRunner::cancel);
    connect(m_launcher, &RunLauncher::progressChanged, this, &DemoRunner::showProgress);
    connect(m_launcher, &RunLauncher::finished, this, &DemoRunner::onFinished);
    // Land on the overview as soon as the first samples are in; the window's watcher
    // refreshes the views as the rest land.
    connect(m_launcher, &RunLauncher::runFileReady, this, &DemoRunner::openRequested);
    connect(m_launcher, &RunLauncher::failedToStart, this, [this](const QString& text) {
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

RunProcess* DemoRunner::process() const
{
    return m_launcher->process();
}

void DemoRunner::start(const QString& program)
{
    if (m_launcher->isRunning())
        return;
    const QString out = path();
    QDir().mkpath(QFileInfo(out).absolutePath());
    m_start->setRunning(true);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancel->show();
    m_launcher->start(program.isEmpty() ? NewRunDialog::findCli() : program,
                      {QStringLiteral("demo"), QStringLiteral("--out"), out}, out);
}

void DemoRunner::cancel()
{
    m_launcher->cancel();
}

void DemoRunner::hideProgress()
{
    m_progress->hide();
    m_cancel->hide();
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
}

void DemoRunner::onFinished(bool ok, int exitCode, bool cancelled)
{
    m_start->setRunning(false);
    hideProgress();
    QString text = ok          ? tr("Demo finished.")
                   : cancelled ? tr("Demo cancelled; finished samples are kept.")
                               : tr("Demo failed (exit code %1).").arg(exitCode);
    const QString stderrText = m_launcher->process()->stderrText().trimmed();
    if (!ok && !cancelled && !stderrText.isEmpty())
        text += QLatin1Char('\n') + stderrText.section(QLatin1Char('\n'), -3);
    m_start->setMessage(text);
    emit message(text);
    if (!QFileInfo::exists(path()) || !m_sessions->canRead())
        return;
    if (m_sessions->current()->path() == path())
        emit refreshRequested();
    else if (ok)
        emit openRequested(path());
}

} // namespace kvl
