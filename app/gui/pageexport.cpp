#include "pageexport.h"

#include "common/error.h"
#include "runpage.h"
#include "views/plotview.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace kvl {

QString exportPageFigure(QWidget* parent, const RunPage* page)
{
    PlotView* view = page ? page->exportedView() : nullptr;
    const PageFigure figure = page ? page->figure() : PageFigure{};
    bool hasData = view && view->hasData();
    for (const PlotView* v : figure.views)
        hasData |= v->hasData();
    if (!hasData)
        return QCoreApplication::translate("kvl::MainWindow",
                                           "Nothing to export: this view holds no data.");
    QString selectedFilter;
    const QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("kvl::MainWindow", "Export figure"), view->title(),
        QCoreApplication::translate("kvl::MainWindow",
                                    "PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"),
        &selectedFilter);
    if (path.isEmpty())
        return {};
    QString file = path;
    if (QFileInfo(file).suffix().isEmpty())
        file += selectedFilter.startsWith(QLatin1String("SVG"))   ? QStringLiteral(".svg")
                : selectedFilter.startsWith(QLatin1String("PNG")) ? QStringLiteral(".png")
                                                                  : QStringLiteral(".pdf");
    try {
        if (figure.views.isEmpty())
            view->exportFigure(file);
        else
            PlotView::exportFigures(figure.views, file, figure.orientation);
        return QCoreApplication::translate("kvl::MainWindow", "Saved %1").arg(file);
    } catch (const Error& e) {
        QMessageBox::warning(
            parent, QCoreApplication::translate("kvl::MainWindow", "Export figure"), e.message());
        return {};
    }
}

QString exportPageData(QWidget* parent, const RunPage* page)
{
    PlotView* view = page ? page->exportedView() : nullptr;
    if (!view || !view->hasData())
        return QCoreApplication::translate("kvl::MainWindow",
                                           "Nothing to export: this view holds no data.");
    QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("kvl::MainWindow", "Export data"), view->title(),
        QCoreApplication::translate("kvl::MainWindow", "CSV (*.csv)"));
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    try {
        view->exportCsv(path);
        return QCoreApplication::translate("kvl::MainWindow", "Saved %1").arg(path);
    } catch (const Error& e) {
        QMessageBox::warning(parent, QCoreApplication::translate("kvl::MainWindow", "Export data"),
                             e.message());
        return {};
    }
}

} // namespace kvl
