#include "mainwindow.h"

#include <QLabel>
#include <QStatusBar>

namespace kvl {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("KVLens"));
    auto* label = new QLabel(tr("Open a run file (*.kvl) to explore it."), this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    statusBar()->showMessage(tr("No run open"));
    resize(1280, 800);
}

} // namespace kvl
