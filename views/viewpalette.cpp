#include "viewpalette.h"

#include <qcustomplot.h>

namespace kvl {

namespace {

// Okabe & Ito (2008); black swapped for a neutral grey that works on both backgrounds.
const QVector<QColor> okabeIto = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                                  QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                  QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00),
                                  QColor(0xF0, 0xE4, 0x42), QColor(0x88, 0x88, 0x88)};

} // namespace

ViewPalette ViewPalette::light()
{
    ViewPalette p;
    p.background = QColor(0xFF, 0xFF, 0xFF);
    p.foreground = QColor(0x22, 0x22, 0x22);
    p.grid = QColor(0xDD, 0xDD, 0xDD);
    p.subGrid = QColor(0xF0, 0xF0, 0xF0);
    p.reference = QColor(0x44, 0x44, 0x44);
    p.highlight = QColor(0x00, 0x00, 0x00);
    p.series = okabeIto;
    return p;
}

ViewPalette ViewPalette::dark()
{
    ViewPalette p;
    p.background = QColor(0x1E, 0x1F, 0x22);
    p.foreground = QColor(0xE6, 0xE6, 0xE6);
    p.grid = QColor(0x3A, 0x3C, 0x40);
    p.subGrid = QColor(0x2A, 0x2B, 0x2F);
    p.reference = QColor(0xCC, 0xCC, 0xCC);
    p.highlight = QColor(0xFF, 0xFF, 0xFF);
    p.series = okabeIto;
    p.series[0] = QColor(0x3D, 0x9A, 0xE0); // Okabe-Ito blue is too dark on a dark background
    p.series[7] = QColor(0xAA, 0xAA, 0xAA);
    return p;
}

ViewPalette ViewPalette::forTheme(Theme theme)
{
    return theme == Theme::Dark ? dark() : light();
}

QColor ViewPalette::roleColor(const QString& role) const
{
    const QString r = role.toLower();
    if (r.startsWith(QLatin1String("system")))
        return series.at(5);
    if (r.startsWith(QLatin1String("format")))
        return series.at(4);
    if (r.startsWith(QLatin1String("request")) || r.startsWith(QLatin1String("user")))
        return series.at(2);
    if (r.startsWith(QLatin1String("defen")))
        return series.at(3);
    if (r.startsWith(QLatin1String("evidence")))
        return series.at(1);
    return series.at(7);
}

void ViewPalette::applyTo(QCPAxis* axis) const
{
    const QPen axisPen(foreground, 1);
    axis->setBasePen(axisPen);
    axis->setTickPen(axisPen);
    axis->setSubTickPen(axisPen);
    axis->setTickLabelColor(foreground);
    axis->setLabelColor(foreground);
    axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
    axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

void ViewPalette::applyTo(QCustomPlot* plot) const
{
    plot->setBackground(QBrush(background));
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(QBrush(background));
        for (QCPAxis* axis : rect->axes())
            applyTo(axis);
    }
    if (plot->legend) {
        plot->legend->setBrush(QBrush(background));
        plot->legend->setBorderPen(QPen(grid));
        plot->legend->setTextColor(foreground);
    }
}

Theme themeFromName(const QString& name)
{
    return name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0 ? Theme::Dark
                                                                         : Theme::Light;
}

QString themeName(Theme theme)
{
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

} // namespace kvl
