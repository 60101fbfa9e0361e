#include "displaymenu.h"

#include "apptheme.h"
#include "sessionstate.h"
#include "viewoptions.h"
#include "views/colormaps.h"

#include <QActionGroup>
#include <QMenu>

#include <utility>

namespace kvl {

DisplayMenu::DisplayMenu(QMenu* view, ViewOptions* options, QObject* parent)
    : QObject(parent), m_options(options)
{
    QMenu* theme = view->addMenu(tr("&Theme"));
    m_themes = new QActionGroup(this);
    for (const auto& [name, label] : {std::pair{QStringLiteral("light"), tr("Light")},
                                      std::pair{QStringLiteral("dark"), tr("Dark")}}) {
        QAction* a = theme->addAction(label, this, [this, name] { setTheme(name); });
        a->setCheckable(true);
        a->setData(name);
        a->setChecked(name == m_theme);
        m_themes->addAction(a);
    }
    QMenu* colorMap = view->addMenu(tr("Heatmap &colour map"));
    m_colorMaps = new QActionGroup(this);
    for (const auto& [map, label] : {std::pair{ColorMap::Viridis, tr("Viridis")},
                                     std::pair{ColorMap::Cividis, tr("Cividis")}}) {
        QAction* a =
            colorMap->addAction(label, m_options, [this, map] { m_options->setColorMap(map); });
        a->setCheckable(true);
        a->setData(colorMapName(map));
        a->setChecked(map == m_options->colorMap());
        m_colorMaps->addAction(a);
    }
    m_logScale =
        view->addAction(tr("Heatmap &logarithmic scale"), m_options, &ViewOptions::setLogScale);
    m_logScale->setCheckable(true);
    QAction* sharedScale =
        view->addAction(tr("Heatmaps: one colour sca&le for FullCache and compressed"), m_options,
                        &ViewOptions::setSharedScale);
    sharedScale->setCheckable(true);
    sharedScale->setChecked(m_options->sharedScale());
    m_shares = view->addAction(tr("Taxonomy and chain breaks as &shares"), m_options,
                               &ViewOptions::setTaxonomyShares);
    m_shares->setCheckable(true);
}

void DisplayMenu::setTheme(const QString& theme)
{
    m_theme = themeName(themeFromName(theme));
    applyApplicationTheme(themeFromName(m_theme));
    for (QAction* a : m_themes->actions())
        a->setChecked(a->data().toString() == m_theme);
    emit themeChanged(m_theme);
}

void DisplayMenu::save(SessionState& s) const
{
    s.theme = m_theme;
    s.heatmapColorMap = colorMapName(m_options->colorMap());
    s.heatmapLogScale = m_options->logScale();
    s.taxonomyShares = m_options->taxonomyShares();
}

void DisplayMenu::restore(const SessionState& s)
{
    setTheme(s.theme);
    m_options->setColorMap(colorMapFromName(s.heatmapColorMap));
    for (QAction* a : m_colorMaps->actions())
        a->setChecked(a->data().toString() == colorMapName(m_options->colorMap()));
    m_options->setLogScale(s.heatmapLogScale);
    m_logScale->setChecked(s.heatmapLogScale);
    m_options->setTaxonomyShares(s.taxonomyShares);
    m_shares->setChecked(s.taxonomyShares);
}

} // namespace kvl
