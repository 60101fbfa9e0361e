#include "openrunerror.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>

namespace kvl {

void showOpenRunError(QWidget* parent, const QString& path, const QString& message)
{
    auto* box = new QMessageBox(QMessageBox::Warning,
                                QCoreApplication::translate("kvl::MainWindow", "Open run"),
                                QCoreApplication::translate("kvl::MainWindow", "Could not open %1")
                                    .arg(QFileInfo(path).fileName()),
                                QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("OpenRunError"));
    box->setInformativeText(message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace kvl
