#pragma once

#include <QObject>
#include <QString>

class QAction;
class QActionGroup;
class QMenu;

namespace kvl {

class ViewOptions;
struct SessionState;

// The display part of the View menu: theme, heatmap colour map and scale, taxonomy as
// shares. Its check marks follow ViewOptions and the theme, and it keeps them in the
// session file and takes them back from it.
class DisplayMenu : public QObject
{
    Q_OBJECT
  public:
    // Adds its actions to `view`; `options` is what the pages read.
    DisplayMenu(QMenu* view, ViewOptions* options, QObject* parent = nullptr);

    QString theme() const { return m_theme; }
    // Applies the theme to the application; themeChanged tells the window's views.
    void setTheme(const QString& theme);

    void save(SessionState& state) const;
    void restore(const SessionState& state);

  signals:
    void themeChanged(const QString& theme);

  private:
    ViewOptions* m_options;
    QString m_theme = QStringLiteral("light");
    QActionGroup* m_themes = nullptr;
    QActionGroup* m_colorMaps = nullptr;
    QAction* m_logScale = nullptr;
    QAction* m_shares = nullptr;
};

} // namespace kvl
