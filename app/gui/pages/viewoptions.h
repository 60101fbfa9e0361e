#pragma once

#include "views/colormaps.h"

#include <QObject>

namespace kvl {

// The View menu's display options that pages draw with: the heatmaps' colour map, log
// scale and shared colour scale, the taxonomies as shares. The menu sets them; each page
// applies them to its own views.
class ViewOptions : public QObject
{
    Q_OBJECT
  public:
    using QObject::QObject;

    ColorMap colorMap() const { return m_colorMap; }
    bool logScale() const { return m_logScale; }
    bool sharedScale() const { return m_sharedScale; }
    bool taxonomyShares() const { return m_taxonomyShares; }

    void setColorMap(ColorMap map);
    void setLogScale(bool on);
    void setSharedScale(bool on);
    void setTaxonomyShares(bool on);

  signals:
    void colorMapChanged(ColorMap map);
    void logScaleChanged(bool on);
    void sharedScaleChanged(bool on);
    void taxonomySharesChanged(bool on);

  private:
    ColorMap m_colorMap = ColorMap::Viridis;
    bool m_logScale = false;
    bool m_sharedScale = true;
    bool m_taxonomyShares = false;
};

} // namespace kvl
