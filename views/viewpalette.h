#pragma once

#include <QColor>
#include <QString>
#include <QVector>

class QCustomPlot;
class QCPAxis;

namespace kvl {

enum class Theme
{
    Light,
    Dark
};

// Colours every view draws with. Series colours are the Okabe–Ito set, which
// stays distinguishable under the common colour-vision deficiencies.
struct ViewPalette
{
    QColor background;
    QColor foreground; // text, axes
    QColor grid;
    QColor subGrid;
    QColor reference; // FullCache and other reference lines
    QColor highlight; // selection outlines
    QVector<QColor> series;

    static ViewPalette light();
    static ViewPalette dark();
    static ViewPalette forTheme(Theme theme);

    QColor seriesColor(int index) const { return series.at(index % series.size()); }
    // Colour of a named instruction role; unknown roles get a neutral colour.
    QColor roleColor(const QString& role) const;

    // Background, axes, tick labels, grid and legend of every axis rect in the plot.
    void applyTo(QCustomPlot* plot) const;
    void applyTo(QCPAxis* axis) const;
};

Theme themeFromName(const QString& name);
QString themeName(Theme theme);

} // namespace kvl
