#include "headselector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace kvl {

HeadSelector::HeadSelector(QWidget* parent)
    : QWidget(parent), m_mode(new QComboBox), m_layer(new QSpinBox), m_head(new QSpinBox)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_mode->setObjectName(QStringLiteral("HeadMode"));
    m_mode->addItem(tr("All layers (mean over kv-heads)"), int(HeadSelection::Mode::LayersMean));
    m_mode->addItem(tr("One layer's kv-heads"), int(HeadSelection::Mode::LayerHeads));
    m_mode->addItem(tr("One kv-head"), int(HeadSelection::Mode::OneHead));
    m_mode->addItem(tr("Every layer × kv-head"), int(HeadSelection::Mode::EveryHead));
    m_layer->setObjectName(QStringLiteral("HeadLayer"));
    m_head->setObjectName(QStringLiteral("HeadIndex"));
    layout->addWidget(new QLabel(tr("Rows:")));
    layout->addWidget(m_mode);
    layout->addWidget(new QLabel(tr("layer")));
    layout->addWidget(m_layer);
    layout->addWidget(new QLabel(tr("kv-head")));
    layout->addWidget(m_head);
    layout->addStretch();
    auto changed = [this] {
        updateEnabled();
        emit selectionChanged(selection());
    };
    connect(m_mode, &QComboBox::currentIndexChanged, this, changed);
    connect(m_layer, &QSpinBox::valueChanged, this, changed);
    connect(m_head, &QSpinBox::valueChanged, this, changed);
    setShape(0, 0);
}

void HeadSelector::setShape(int layers, int kvHeads)
{
    const QSignalBlocker a(m_layer), b(m_head), c(m_mode);
    m_kvHeads = kvHeads;
    m_layer->setRange(0, std::max(0, layers - 1));
    m_head->setRange(0, std::max(0, kvHeads - 1));
    if (kvHeads <= 0)
        m_mode->setCurrentIndex(0);
    m_mode->setToolTip(kvHeads > 0 ? QString()
                                   : tr("This attention has no per-head values: only the mean "
                                        "over kv-heads of each layer can be drawn."));
    updateEnabled();
}

HeadSelection HeadSelector::selection() const
{
    HeadSelection s;
    s.mode = HeadSelection::Mode(m_mode->currentData().toInt());
    s.layer = m_layer->value();
    s.head = m_head->value();
    return s;
}

void HeadSelector::setSelection(const HeadSelection& selection)
{
    {
        const QSignalBlocker a(m_layer), b(m_head), c(m_mode);
        m_mode->setCurrentIndex(std::max(0, m_mode->findData(int(selection.mode))));
        m_layer->setValue(selection.layer);
        m_head->setValue(selection.head);
        updateEnabled();
    }
    emit selectionChanged(this->selection());
}

void HeadSelector::updateEnabled()
{
    const auto mode = HeadSelection::Mode(m_mode->currentData().toInt());
    m_mode->setEnabled(m_kvHeads > 0);
    m_layer->setEnabled(m_kvHeads > 0 && (mode == HeadSelection::Mode::LayerHeads ||
                                          mode == HeadSelection::Mode::OneHead));
    m_head->setEnabled(m_kvHeads > 0 && mode == HeadSelection::Mode::OneHead);
}

} // namespace kvl
