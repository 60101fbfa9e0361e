#pragma once

#include <QString>

class QCPColorGradient;

namespace kvl {

// Perceptually uniform, colour-blind safe colour maps (matplotlib's viridis and
// cividis). QCustomPlot's presets (jet, spectrum, ...) are neither, so views never use them.
enum class ColorMap
{
    Viridis,
    Cividis
};

QCPColorGradient colorGradient(ColorMap map);
ColorMap colorMapFromName(const QString& name);
QString colorMapName(ColorMap map);

} // namespace kvl
