#include "selectionbar.h"

#include "runsession.h"

#include <QComboBox>
#include <QLabel>

namespace kvl {

SelectionBar::SelectionBar(QWidget* parent)
    : QToolBar(tr("Selection"), parent), m_configs(new QComboBox), m_samples(new QComboBox)
{
    setObjectName(QStringLiteral("SelectionBar"));
    setMovable(false);
    m_configs->setObjectName(QStringLiteral("FocusConfiguration"));
    m_configs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_configs->setToolTip(tr("Configuration of the attention, eviction map and GER views"));
    m_samples->setObjectName(QStringLiteral("FocusSample"));
    m_samples->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_samples->setToolTip(tr("Sample of the attention and compare views; the eviction map "
                             "averages over all samples unless one is chosen"));
    addWidget(new QLabel(tr(" Configuration: ")));
    addWidget(m_configs);
    addWidget(new QLabel(tr("  Sample: ")));
    addWidget(m_samples);
    connect(m_configs, &QComboBox::activated, this, [this](int i) {
        const QVector<ConfigChoice>& configs = m_session->data().configs;
        if (i >= 0 && i < configs.size())
            m_session->setFocusConfiguration(configs[i].compressor, configs[i].ratio);
    });
    connect(m_samples, &QComboBox::activated, this, [this](int i) {
        m_session->setFocusSample(i <= 0 ? QString() : m_samples->itemData(i).toString());
    });
}

void SelectionBar::bind(RunSession* session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    for (auto signal : {&RunSession::summaryAvailable, &RunSession::overviewAvailable,
                        &RunSession::detailsAvailable})
        connect(session, signal, this, &SelectionBar::update);
    connect(session, &RunSession::closed, this, &SelectionBar::update);
}

void SelectionBar::update()
{
    const RunViewData& data = m_session->data();
    {
        const QSignalBlocker block(m_configs);
        m_configs->clear();
        for (const ConfigChoice& c : data.configs)
            m_configs->addItem(c.label());
        m_configs->setCurrentIndex(int(data.configs.indexOf(data.focus)));
    }
    const QSignalBlocker block(m_samples);
    m_samples->clear();
    if (!data.sampleKeys.isEmpty())
        m_samples->addItem(tr("All samples (mean)"));
    for (const QString& key : data.sampleKeys)
        m_samples->addItem(key, key);
    const QString asked = m_session->request().sampleKey;
    const int i = data.evictionAveraged || asked.isEmpty() ? 0 : m_samples->findData(asked);
    m_samples->setCurrentIndex(data.sampleKeys.isEmpty() ? -1 : std::max(0, i));
}

} // namespace kvl
