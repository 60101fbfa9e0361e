#pragma once

#include "pooledmapview.h"
#include "retrievalmapdata.h"

namespace kvl {

// Offloaded decoding of one row: the share of selections that retrieved each context
// position at each decoding step (rows = steps), with each answer field's evidence
// span as a labelled band under the map and, where the row records it, a box at the
// step that wrote the field over its evidence: a field written while its evidence was
// not retrieved shows as a dark box. Zooms and hovers like the other maps; long
// contexts are mean-pooled to the plot's width.
class RetrievalMapView : public PooledMapView
{
    Q_OBJECT
  public:
    explicit RetrievalMapView(QWidget* parent = nullptr);

    void setData(const RetrievalMapData& data);
    const RetrievalMapData& data() const { return m_data; }
    void clear() override;

    // step,position,share,field (the labels of the fields whose evidence holds the
    // position, joined by ';'),written_field (fields written at that step) at full
    // resolution
    QString csv() const override;

  protected:
    void rebuild() override;
    void drawPooled() override;
    QString describeCell(int row, int bin) const override;
    std::optional<QString> tokenAt(int position) const override;

  private:
    RetrievalMapData m_data;
};

} // namespace kvl
