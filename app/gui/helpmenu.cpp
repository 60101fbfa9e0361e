#include "helpmenu.h"

#include "views/glossary.h"

#include <QApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>

namespace kvl {

void HelpMenu::addTo(QMainWindow* window)
{
    QMenu* help = window->menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About KVLens"), window, [window] {
        QMessageBox::about(
            window, tr("About KVLens"),
            tr("<h3>KVLens %1</h3><p>Visual analysis of KV-cache compression in long-context "
               "language models: why a compressed model fails, not only that it fails.</p>"
               "<p>Runs happen in a separate <tt>kvlens-cli</tt> process; this window only "
               "reads run files and draws.</p>")
                .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("&Glossary"), window, [window] {
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("Glossary"), glossaryHtml(),
                                    QMessageBox::Close, window);
        box->setObjectName(QStringLiteral("Glossary"));
        box->setTextFormat(Qt::RichText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

} // namespace kvl
