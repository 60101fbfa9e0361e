#pragma once

#include "evictionmapdata.h"
#include "pooledmapview.h"

namespace kvl {

// Keep fraction per context position × layer, with the instruction spans drawn
// as labelled bands under the map: shows which instruction is evicted first.
// Long contexts are mean-pooled to the plot's pixel width.
class EvictionMapView : public PooledMapView
{
    Q_OBJECT
  public:
    explicit EvictionMapView(QWidget* parent = nullptr);

    void setData(const EvictionMap& data);
    const EvictionMap& data() const { return m_data; }
    void clear() override;

    // layer,position,keep,span_role,span_label at full resolution
    QString csv() const override;

  protected:
    void rebuild() override;
    void drawPooled() override;
    QString describeCell(int row, int bin) const override;
    std::optional<QString> tokenAt(int position) const override;

  private:
    EvictionMap m_data;
};

} // namespace kvl
