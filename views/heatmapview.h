#pragma once

#include "headselection.h"
#include "heatmapdata.h"
#include "pooledmapview.h"

#include <QPointer>

class QCPAxisRect;
class QCPColorGradient;

namespace kvl {

// Question attention over context positions × layers (or heads). A long context
// is max-pooled to the pixel width of the plot, so a single bright position
// stays visible and the cost never grows with N². Evidence spans are boxed and
// marked above the map; evicted entries are greyed out.
//
// Heatmaps of one sample (FullCache and a compressor, or the compare page's three
// configurations) are linked with setScalePartner() or linkScales(): they zoom together
// and, unless setSharedScale(false), share one colour range, so equal colours mean
// equal attention in every panel.
class HeatmapView : public PooledMapView
{
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);

    // `data` per layer; with perHead, the head selection picks the rows drawn.
    void setData(const Heatmap& data);
    // The rows drawn now (the selection applied to the data given).
    const Heatmap& data() const { return m_data; }
    const Heatmap& source() const { return m_source; }

    // One head, a layer's heads, every head, or the layers (mean over kv-heads); follows
    // the scale partner, and names the layer and head in the provenance of exports.
    HeadSelection headSelection() const { return m_selection; }
    void setHeadSelection(const HeadSelection& selection);
    void clear() override;

    bool logScale() const { return m_logScale; }
    void setLogScale(bool on);

    // Pairs this view with `partner` (both ways; nullptr unpairs): zoom follows, log
    // scale follows, and with a shared scale both colour ranges are the same.
    void setScalePartner(HeatmapView* partner);
    // The same for any number of views: each leaves the group it was in.
    static void linkScales(const QVector<HeatmapView*>& views);
    // The first view linked with this one (nullptr when none).
    HeatmapView* scalePartner() const;
    QVector<HeatmapView*> scalePeers() const;
    bool sharedScale() const { return m_sharedScale; }
    void setSharedScale(bool on);
    // The colour range drawn now (lower, upper).
    QPair<double, double> colorRange() const { return m_colorRange; }
    // Largest value over the positions [begin, end) of every row (0 without data).
    double maxOver(int begin, int end) const;

    // <rowKind>,position,value,evicted,evidence at full resolution (evicted empty without a mask)
    QString csv() const override;
    // That CSV of any map (the head grid writes its every-head rows with it).
    static QString csvOf(const Heatmap& map);
    // The translucent grey drawn over evicted entries.
    static QCPColorGradient evictionWash();

  protected:
    void rebuild() override;
    void drawPooled() override;
    QString describeCell(int row, int bin) const override;
    std::optional<QString> tokenAt(int position) const override;

  private:
    QString rowLabel(int row) const;

    void applySelection();
    void unlinkScale();
    // Peers with data drawn (the ones a shared range or a paired layout depends on).
    bool anyPeerHasData() const;
    void rebuildPeers();

    Heatmap m_source;
    Heatmap m_data;
    HeadSelection m_selection;
    bool m_logScale = false;
    bool m_sharedScale = true;
    QVector<QPointer<HeatmapView>> m_peers;
    QPair<double, double> m_colorRange{0.0, 0.0};
};

} // namespace kvl
