#include "colormaps.h"

#include <qcustomplot.h>

namespace kvl {

namespace {

// Ten evenly spaced samples of each map (viridisLite 0.4, equal to matplotlib's
// tables at these points); QCPColorGradient interpolates linearly between them.
const char* const viridisStops[] = {"#440154", "#482878", "#3E4A89", "#31688E", "#26828E",
                                    "#1F9E89", "#35B779", "#6DCD59", "#B4DE2C", "#FDE725"};
const char* const cividisStops[] = {"#00204D", "#00336F", "#39486B", "#575C6D", "#707173",
                                    "#8A8779", "#A69D75", "#C4B56C", "#E4CF5B", "#FFEA46"};

QCPColorGradient fromStops(const char* const (&stops)[10])
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (int i = 0; i < 10; ++i)
        gradient.setColorStopAt(i / 9.0, QColor(QLatin1String(stops[i])));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(256);
    // NaN cells (no data) are drawn transparent, so the background shows through.
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

} // namespace

QCPColorGradient colorGradient(ColorMap map)
{
    return map == ColorMap::Cividis ? fromStops(cividisStops) : fromStops(viridisStops);
}

ColorMap colorMapFromName(const QString& name)
{
    return name.compare(QLatin1String("cividis"), Qt::CaseInsensitive) == 0 ? ColorMap::Cividis
                                                                            : ColorMap::Viridis;
}

QString colorMapName(ColorMap map)
{
    return map == ColorMap::Cividis ? QStringLiteral("cividis") : QStringLiteral("viridis");
}

} // namespace kvl
