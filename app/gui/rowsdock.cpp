#include "rowsdock.h"

#include "latestrequest.h"
#include "rowspanel.h"

namespace kvl {

RowsDock::RowsDock(QWidget* parent)
    : QDockWidget(tr("Rows"), parent), m_panel(new RowsPanel), m_request(new LatestRequest(this))
{
    setObjectName(QStringLiteral("RowsDock"));
    setWidget(m_panel);
}

void RowsDock::showRows(const QString& source, const QString& title,
                        std::function<QVector<ResultRow>()> query)
{
    showSource(source);
    m_title = title;
    m_query = query;
    m_panel->setBusy(title);
    show();
    m_request->run<QVector<ResultRow>>(
        query,
        [this, title](const QVector<ResultRow>& rows) {
            m_panel->setRows(tr("%1: %n row(s)", nullptr, int(rows.size())).arg(title), rows);
            emit rowsAvailable(int(rows.size()));
        },
        [this](const QString& message) { m_panel->setRows(message, {}); });
}

void RowsDock::showSource(const QString& source)
{
    if (source == m_source)
        return;
    clear();
    m_source = source;
}

void RowsDock::refresh()
{
    if (m_query)
        showRows(m_source, m_title, m_query);
}

void RowsDock::clear()
{
    m_request->cancel();
    m_panel->clear();
    m_query = {};
    m_source.clear();
}

} // namespace kvl
