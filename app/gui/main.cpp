// kvlens: the desktop app (views over run files; runs happen in kvlens-cli).
#include "mainwindow.h"

#include <QApplication>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("KVLens"));
    QApplication::setApplicationVersion(QStringLiteral(KVLENS_VERSION));
    kvl::MainWindow window;
    window.show();
    return app.exec();
}
