#include "pageexport.h"

#include "batchfigures.h"
#include "common/error.h"
#include "runpage.h"
#include "views/plotview.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <qcustomplot.h>

#include <algorithm>

namespace kvl {

QString defaultFigureName(const PlotView* view)
{
    return BatchFigures::slug(view->title());
}

FigureExporter::PrintSize presetSize(FigurePreset preset, double aspect)
{
    FigureExporter::PrintSize size;
    size.widthInches = preset == FigurePreset::SingleColumn   ? 3.5
                       : preset == FigurePreset::DoubleColumn ? 7.0
                                                              : 0.0;
    size.heightInches = size.widthInches * std::clamp(aspect, 0.4, 1.0);
    size.dpi = 300;
    return size;
}

namespace {

// Asks for the size; false when the user cancelled.
bool askPreset(QWidget* parent, FigurePreset* preset)
{
    const QStringList items{
        QCoreApplication::translate("kvl::MainWindow", "Single column (3.5 in)"),
        QCoreApplication::translate("kvl::MainWindow", "Double column (7 in)"),
        QCoreApplication::translate("kvl::MainWindow", "As on screen")};
    bool ok = false;
    const QString item = QInputDialog::getItem(
        parent, QCoreApplication::translate("kvl::MainWindow", "Export figure"),
        QCoreApplication::translate("kvl::MainWindow", "Figure size:"), items, 1, false, &ok);
    if (!ok)
        return false;
    *preset = FigurePreset(std::max<qsizetype>(0, items.indexOf(item)));
    return true;
}

} // namespace

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
    FigurePreset preset = FigurePreset::DoubleColumn;
    if (!askPreset(parent, &preset))
        return {};
    QString selectedFilter;
    const QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("kvl::MainWindow", "Export figure"),
        defaultFigureName(view),
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
    const QSize onScreen = view->plot()->size();
    const FigureExporter::PrintSize size = presetSize(
        preset, onScreen.width() > 0 ? double(onScreen.height()) / onScreen.width() : 0.62);
    try {
        if (preset == FigurePreset::AsOnScreen && figure.views.isEmpty()) {
            view->exportFigure(file);
        } else if (figure.views.isEmpty()) {
            const Provenance p = view->provenance();
            FigureExporter::savePrintFigure(view->plot(), file, size, view->title(),
                                            {view->title(), p.toText()}, p.toText());
        } else {
            // Panels of one figure, each the preset's width (at 100 px an inch).
            const int n = int(figure.views.size());
            const QSize each =
                preset == FigurePreset::AsOnScreen ? QSize()
                : figure.orientation == Qt::Vertical
                    ? QSize(int(size.widthInches * 100), int(size.widthInches * 100 * 0.45))
                    : QSize(int(size.widthInches * 100 / n), int(size.widthInches * 100 * 0.6));
            PlotView::exportFigures(figure.views, file, figure.orientation, each);
        }
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
