#include "retrievalmappage.h"

#include "common/error.h"
#include "runsession.h"
#include "store/runreader.h"
#include "views/retrievalmapview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvl {

RetrievalMapPage::RetrievalMapPage(PageHost& host)
    : RunPage(host), m_rows(new QComboBox), m_message(new QLabel), m_view(new RetrievalMapView)
{
    m_rows->setObjectName(QStringLiteral("RetrievalRow"));
    m_rows->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_message->setWordWrap(true);
    m_message->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Row:")));
    row->addWidget(m_rows);
    row->addStretch();
    layout->addLayout(row);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);
    connect(m_rows, &QComboBox::currentIndexChanged, this, [this] { loadChosen(); });
    connect(this, &RetrievalMapPage::rowShown, this, &RunPage::shownSelectionChanged);
}

void RetrievalMapPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::overviewAvailable, this, [this](const RunViewData& data) {
        setRun(data.path, data.offload.rows, baseProvenance(data));
    });
}

PlotView* RetrievalMapPage::exportedView() const
{
    return m_view;
}

ShownSelection RetrievalMapPage::shownSelection(const ShownSelection& focus) const
{
    const std::optional<RetrievalRowChoice> row = shownRow();
    if (!row)
        return focus;
    return {ConfigChoice{row->compressor, row->ratio}, row->sampleKey, false};
}

void RetrievalMapPage::setRun(const QString& path, const QVector<RetrievalRowChoice>& rows,
                              const Provenance& base)
{
    const int at = m_rows->currentIndex();
    const RetrievalRowChoice kept =
        path == m_path && at >= 0 && at < m_choices.size() ? m_choices[at] : RetrievalRowChoice{};
    const bool same = path == m_path && rows == m_choices;
    m_path = path;
    m_base = base;
    if (same && m_view->hasData())
        return; // a refresh that changed nothing keeps the zoom
    m_choices = rows;
    const QSignalBlocker block(m_rows);
    m_rows->clear();
    for (const RetrievalRowChoice& c : rows)
        m_rows->addItem(c.label);
    const qsizetype keep = rows.indexOf(kept);
    m_rows->setCurrentIndex(keep >= 0 ? int(keep) : (rows.isEmpty() ? -1 : 0));
    loadChosen();
}

void RetrievalMapPage::clear()
{
    m_path.clear();
    m_choices.clear();
    const QSignalBlocker block(m_rows);
    m_rows->clear();
    m_message->hide();
    m_view->clear();
}

bool RetrievalMapPage::showRow(const QString& sampleKey, const QString& configKey)
{
    for (int i = 0; i < m_choices.size(); ++i)
        if (m_choices[i].sampleKey == sampleKey && m_choices[i].configKey == configKey) {
            if (m_rows->currentIndex() == i)
                loadChosen();
            else
                m_rows->setCurrentIndex(i);
            return true;
        }
    return false;
}

std::optional<RetrievalRowChoice> RetrievalMapPage::shownRow() const
{
    const int i = m_rows->currentIndex();
    if (m_path.isEmpty() || i < 0 || i >= m_choices.size() || !m_view->hasData())
        return std::nullopt;
    return m_choices[i];
}

void RetrievalMapPage::loadChosen()
{
    const int i = m_rows->currentIndex();
    m_message->hide();
    if (m_path.isEmpty() || i < 0 || i >= m_choices.size()) {
        m_view->clear();
        emit rowShown();
        return;
    }
    const RetrievalRowChoice& choice = m_choices[i];
    try {
        RunReader reader(m_path);
        const RetrievalMapData data = loadRetrievalMap(reader, choice.sampleKey, choice.configKey);
        Provenance p = m_base;
        p.compressor = choice.configKey;
        p.note = tr("sample %1").arg(choice.sampleKey);
        m_view->setProvenance(p);
        m_view->setTitle(tr("Retrieval map · %1 · %2").arg(choice.sampleKey, choice.configKey));
        m_view->setData(data);
    } catch (const Error& e) {
        m_view->clear();
        m_message->setText(e.message());
        m_message->show();
    }
    emit rowShown();
}

} // namespace kvl
