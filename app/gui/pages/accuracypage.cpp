#include "accuracypage.h"

#include "batchfigures.h"
#include "missingrowstext.h"
#include "pagehost.h"
#include "runsession.h"
#include "views/accuracyratioview.h"
#include "views/csvtable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvl {

AccuracyPage::AccuracyPage(PageHost& host) : RunPage(host)
{
    m_view = new AccuracyRatioView;
    m_title = m_view->title();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    m_suiteRow = new QWidget;
    auto* row = new QHBoxLayout(m_suiteRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_suites = new QComboBox;
    m_suites->setObjectName(QStringLiteral("AccuracySuite"));
    row->addWidget(new QLabel(tr("Suite:")));
    row->addWidget(m_suites);
    row->addStretch();
    m_suiteRow->hide();
    layout->addWidget(m_suiteRow);
    m_missing = new QLabel;
    m_missing->setObjectName(QStringLiteral("AccuracyMissing"));
    m_missing->setWordWrap(true);
    m_missing->hide();
    layout->addWidget(m_missing);
    layout->addWidget(m_view, 1);
    connect(m_suites, &QComboBox::currentIndexChanged, this,
            [this](int i) { session()->setAccuracySuite(m_suites->itemData(i).toString()); });
    connect(m_view, &AccuracyRatioView::configurationSelected, this,
            [this](const QString& compressor, double ratio) {
                this->host().showMessage(tr("Selected %1 at ratio %2").arg(compressor).arg(ratio));
                session()->setFocusConfiguration(compressor, ratio);
            });
}

void AccuracyPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::summaryAvailable, this, &AccuracyPage::showRun);
    connect(session, &RunSession::accuracySuiteChanged, this, &AccuracyPage::showSuite);
}

PlotView* AccuracyPage::exportedView() const
{
    return m_view;
}

void AccuracyPage::showRun(const RunViewData& data)
{
    m_view->setProvenance(baseProvenance(data));
    // Curves standing on fewer samples than the run holds say so where they are read.
    const MissingRowsText missing = MissingRowsText::of(data.missing);
    QString line = missing.summary;
    if (line.startsWith(QStringLiteral(" · ")))
        line.remove(0, 3);
    m_missing->setText(line.isEmpty() ? QString() : tr("Not in these curves: %1").arg(line));
    m_missing->setToolTip(missing.detail);
    m_missing->setVisible(!line.isEmpty());
    {
        const QSignalBlocker block(m_suites);
        m_suites->clear();
        m_suites->addItem(tr("All suites"), QString());
        for (const QString& suite : data.suites)
            m_suites->addItem(suite, suite);
        m_suiteRow->setVisible(data.suites.size() > 1);
    }
    showSuite(session()->selection().accuracySuite);
}

void AccuracyPage::showSuite(const QString& suite)
{
    // The suite stays asked for across runs: the next run with that suite opens on it.
    const RunViewData& data = session()->data();
    const qsizetype i = suite.isEmpty() ? -1 : data.suites.indexOf(suite);
    m_view->setTitle(i >= 0 ? QStringLiteral("%1 · %2").arg(m_title, suite) : m_title);
    m_view->setData(i >= 0 ? data.suiteAccuracy[i] : data.accuracy);
    Provenance p = m_view->provenance();
    p.note = i >= 0 ? QStringLiteral("suite: %1").arg(suite) : QString();
    m_view->setProvenance(p);
    const QSignalBlocker block(m_suites);
    m_suites->setCurrentIndex(std::max(0, m_suites->findData(i >= 0 ? suite : QString())));
}

void AccuracyPage::clear()
{
    m_view->clear();
    m_view->setTitle(m_title);
    const QSignalBlocker block(m_suites);
    m_suites->clear();
    m_suiteRow->hide();
    m_missing->hide();
}

void AccuracyPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    auto* accuracy = figures.make(new AccuracyRatioView);
    accuracy->setData(data.accuracy);
    figures.add(QStringLiteral("accuracy"), accuracy, 0.62, tr("no accuracy rows in the run"),
                accuracy->printMinHeightInches());
    if (data.suites.size() <= 1) {
        figures.skip(
            QStringLiteral("accuracy per suite"),
            data.suites.isEmpty()
                ? tr("the run has no suite")
                : tr("the run has one suite (%1): accuracy is it").arg(data.suites.value(0)));
        return;
    }
    // Every suite's accuracy in one table with the suite as a key column too (the
    // per-suite CSVs name theirs only in a '#' line), for a plot script that facets.
    QString table;
    for (int i = 0; i < data.suites.size(); ++i) {
        const QString suite = data.suites[i];
        Provenance p;
        p.note = QStringLiteral("suite: %1").arg(suite);
        auto* view = figures.make(new AccuracyRatioView, p);
        view->setTitle(QStringLiteral("%1 · %2").arg(view->title(), suite));
        view->setData(data.suiteAccuracy.value(i));
        figures.add(QStringLiteral("accuracy-%1").arg(BatchFigures::slug(suite)), view, 0.62,
                    tr("no accuracy rows for the suite"), view->printMinHeightInches());
        if (!view->hasData())
            continue;
        const QStringList lines = view->csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (table.isEmpty() && !lines.isEmpty())
            table += QStringLiteral("suite,") + lines.constFirst() + QLatin1Char('\n');
        for (qsizetype l = 1; l < lines.size(); ++l)
            table += CsvTable::escape(suite) + QLatin1Char(',') + lines[l] + QLatin1Char('\n');
    }
    figures.addTable(QStringLiteral("accuracy-by-suite"), table,
                     QStringLiteral("accuracy of each suite"));
}

} // namespace kvl
