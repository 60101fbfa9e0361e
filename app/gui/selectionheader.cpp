#include "selectionheader.h"

#include <QLabel>
#include <QVBoxLayout>

namespace kvl {

SelectionHeader::SelectionHeader(QWidget* parent)
    : QWidget(parent), m_selection(new QLabel), m_caveat(new QLabel)
{
    m_selection->setObjectName(QStringLiteral("SelectionTitle"));
    m_selection->setWordWrap(true);
    m_selection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selection->setContentsMargins(6, 3, 6, 3);
    m_caveat->setObjectName(QStringLiteral("FailuresCaveat"));
    m_caveat->setWordWrap(true);
    m_caveat->setContentsMargins(6, 3, 6, 3);
    m_caveat->setStyleSheet(QStringLiteral("QLabel { background: #FFF4CE; color: #4A3B00; }"));
    m_caveat->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_selection);
    layout->addWidget(m_caveat);
}

void SelectionHeader::setLines(const QString& line, const QString& caveat)
{
    // The page in bold, the selection after it.
    const qsizetype cut = line.indexOf(QStringLiteral(" · "));
    m_selection->setText(
        cut < 0 ? QStringLiteral("<b>%1</b>").arg(line.toHtmlEscaped())
                : QStringLiteral("<b>%1</b>%2")
                      .arg(line.left(cut).toHtmlEscaped(), line.mid(cut).toHtmlEscaped()));
    m_caveat->setText(caveat);
    m_caveat->setVisible(!caveat.isEmpty());
}

} // namespace kvl
