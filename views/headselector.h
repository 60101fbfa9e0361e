#pragma once

#include "headselection.h"

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace kvl {

// Chooses the rows of a question-attention heatmap: all layers (mean over kv-heads),
// one layer's kv-heads, one (layer, kv-head), or every layer × kv-head. Disabled when
// the data has no per-head attention.
class HeadSelector : public QWidget
{
    Q_OBJECT
  public:
    explicit HeadSelector(QWidget* parent = nullptr);

    // The model's shape; kvHeads 0 = no per-head attention (the selector is disabled).
    void setShape(int layers, int kvHeads);
    HeadSelection selection() const;
    void setSelection(const HeadSelection& selection);

  signals:
    void selectionChanged(const kvl::HeadSelection& selection);

  private:
    void updateEnabled();

    QComboBox* m_mode;
    QSpinBox* m_layer;
    QSpinBox* m_head;
    int m_kvHeads = 0;
};

} // namespace kvl
