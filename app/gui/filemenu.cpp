#include "filemenu.h"

#include "mainwindow.h"
#include "newrundialog.h"
#include "pageexport.h"
#include "runlauncher.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>

namespace kvl {

FileMenu::FileMenu(MainWindow& window) : QObject(&window), m_window(window)
{
    m_menu = window.menuBar()->addMenu(tr("&File"));
    m_menu->addAction(tr("&New run…"), QKeySequence::New, this, &FileMenu::showNewRunDialog);
    m_menu->addAction(tr("&Open run…"), QKeySequence::Open, this, &FileMenu::askForRun);
    m_menu->addAction(tr("&Close run"), QKeySequence::Close, &window, &MainWindow::closeRun);
    m_menu->addSeparator();
    m_menu->addAction(tr("Export &figure…"), QKeySequence(tr("Ctrl+E")), this,
                      &FileMenu::exportFigure);
    m_menu->addAction(tr("Export &data…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                      &FileMenu::exportData);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Quit"), QKeySequence::Quit, &window, &QWidget::close);
}

void FileMenu::askForRun()
{
    const QString path = QFileDialog::getOpenFileName(&m_window, tr("Open run"), {},
                                                      tr("KVLens runs (*.kvl);;All files (*)"));
    if (!path.isEmpty())
        m_window.openRun(path);
}

void FileMenu::showNewRunDialog()
{
    if (!m_newRun) {
        m_newRun = new NewRunDialog(&m_window);
        connect(m_newRun, &NewRunDialog::runFinished, this, [this](const QString& path, bool ok) {
            m_window.showMessage(ok ? tr("Run finished: %1").arg(path)
                                    : tr("Run stopped: %1").arg(path));
            if (QFileInfo::exists(path) && m_window.sessions()->canRead())
                m_window.openRun(path);
        });
        // The views fill in as rows land, not only when the sweep is over.
        connect(m_newRun->launcher(), &RunLauncher::runFileReady, &m_window,
                &MainWindow::openLaunchedRun);
    }
    m_newRun->show();
    m_newRun->raise();
}

bool FileMenu::exportAllowed()
{
    // Figures and data leave the app with provenance: never from rows not yet verified.
    const RunSession* session = m_window.session();
    if (session->path().isEmpty() || session->isVerified())
        return true;
    m_window.showMessage(
        tr("The run's rows are still being checked; export once the check is done."));
    return false;
}

void FileMenu::exportFigure()
{
    exportPage(exportPageFigure);
}

void FileMenu::exportData()
{
    exportPage(exportPageData);
}

void FileMenu::exportPage(QString (*write)(QWidget*, const RunPage*))
{
    if (!exportAllowed())
        return;
    const QString message = write(&m_window, m_window.currentRunPage());
    if (!message.isEmpty())
        m_window.showMessage(message);
}

} // namespace kvl
