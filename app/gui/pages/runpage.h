#pragma once

#include "pageid.h"
#include "runviewdata.h"

#include <QVector>
#include <QWidget>

#include <utility>

namespace kvl {

class PageHost;
class PlotView;
class PooledMapView;
class RunSession;
struct SessionState;

// What the line over the views names: the configuration and sample a page shows.
struct ShownSelection
{
    ConfigChoice config;
    QString sample; // empty: the mean over samples
    // The page draws one sample although the toolbar asks for all (the attention maps).
    bool oneSampleOfAll = false;
};

// The figure File › Export figure writes from a page: one view, or several drawn as one
// (the FullCache and compressed heatmaps).
struct PageFigure
{
    QVector<const PlotView*> views;
    Qt::Orientation orientation = Qt::Vertical;
};

// One page of the window: its views, its choosers, its provenance and its clearing, wired
// to the run session's stages by the page itself (bind), as Hotspot's result pages take
// the parser. The window only places pages in the navigator (PageRegistry) and asks the
// current one what File › Export takes and what the selection line should say.
//
// A page reads the selection from the session and asks the session to change it; it
// never keeps a copy that another page could contradict.
class RunPage : public QWidget
{
    Q_OBJECT
  public:
    explicit RunPage(PageHost& host, QWidget* parent = nullptr);

    // Connects the page to the session of the run shown (its stages, its selection, its
    // closing). Called again with another run's session when the window shows that run:
    // the page leaves the session before, then connectSession() joins the new one.
    void bind(RunSession* session);

    // The view File › Export data takes, and the one Export figure takes when
    // figure() is empty; nullptr for a page without a figure.
    virtual PlotView* exportedView() const { return nullptr; }
    virtual PageFigure figure() const { return {}; }
    // The configuration and sample the page shows, given the session's focus.
    virtual ShownSelection shownSelection(const ShownSelection& focus) const { return focus; }

    // Every view empty, every chooser cleared: the run was closed.
    virtual void clear() {}

    // The page's part of the session file (zoom and the like), and its restore once the
    // restored run's details are shown.
    virtual void saveState(SessionState& state) const { Q_UNUSED(state); }
    virtual void restoreState(const SessionState& state) { Q_UNUSED(state); }

    const PageId& id() const { return m_id; }
    void setId(const PageId& id) { m_id = id; }

  signals:
    // shownSelection() changed without a change of the session's focus.
    void shownSelectionChanged();

  protected:
    // The page's connections to the session's signals, with the page as context (bind
    // undoes them by that context). Nothing else goes here: connections from the page's
    // own widgets are made once, in its constructor, and reach the session through
    // session(), which follows bind.
    virtual void connectSession(RunSession* session) { Q_UNUSED(session); }
    RunSession* session() const { return m_session; }
    PageHost& host() const { return m_host; }
    // The run's name and model, the provenance every figure of the run starts from.
    static Provenance baseProvenance(const RunViewData& data);
    // A view's own provenance (configuration, sample, layer) completed with the run's.
    static Provenance withRun(Provenance p, const RunViewData& data);
    // Fills the page with one widget (a view, a panel, a tab widget), `top` pixels below
    // the selection line.
    void setContent(QWidget* content, int top = 0);
    // A map's zoom as the session file keeps it ({-1, -1}: the whole context), and back.
    static std::pair<int, int> zoomOf(const PooledMapView* map);
    static void restoreZoom(PooledMapView* map, std::pair<int, int> zoom);

  private:
    PageHost& m_host;
    RunSession* m_session = nullptr;
    PageId m_id;
};

} // namespace kvl
