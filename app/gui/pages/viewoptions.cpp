#include "viewoptions.h"

namespace kvl {

void ViewOptions::setColorMap(ColorMap map)
{
    m_colorMap = map;
    emit colorMapChanged(map);
}

void ViewOptions::setLogScale(bool on)
{
    m_logScale = on;
    emit logScaleChanged(on);
}

void ViewOptions::setSharedScale(bool on)
{
    m_sharedScale = on;
    emit sharedScaleChanged(on);
}

void ViewOptions::setTaxonomyShares(bool on)
{
    m_taxonomyShares = on;
    emit taxonomySharesChanged(on);
}

} // namespace kvl
