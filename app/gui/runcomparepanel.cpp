#include "runcomparepanel.h"

#include "common/error.h"
#include "latestrequest.h"
#include "views/accuracydeltamodel.h"
#include "views/figureexporter.h"
#include "views/ratiocurvesview.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace kvl {

RunComparePanel::RunComparePanel(QWidget* parent)
    : QWidget(parent), m_request(new LatestRequest(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* pickers = new QHBoxLayout;
    const QString names[2] = {tr("Run A:"), tr("Run B:")};
    for (int i = 0; i < 2; ++i) {
        m_pick[i] = new QComboBox;
        m_pick[i]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        pickers->addWidget(new QLabel(names[i]));
        pickers->addWidget(m_pick[i]);
        connect(m_pick[i], &QComboBox::currentIndexChanged, this, &RunComparePanel::reload);
    }
    m_export = new QPushButton(tr("Export table (CSV)…"));
    m_export->setEnabled(false);
    pickers->addStretch(1);
    pickers->addWidget(m_export);
    layout->addLayout(pickers);
    m_summary = new QLabel(tr("Open a second run (File › Open run…) to compare two runs."));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto* split = new QSplitter(Qt::Horizontal);
    m_curves = new RatioCurvesView(tr("Accuracy of two runs over their matched samples"),
                                   twoRunsHint());
    split->addWidget(m_curves);
    auto* right = new QSplitter(Qt::Vertical);
    m_model = new AccuracyDeltaModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    right->addWidget(m_table);
    m_mismatches = new QListWidget;
    m_mismatches->setToolTip(tr("Samples not compared: the same id naming other content in the "
                                "two runs (never paired), and samples of one run only"));
    right->addWidget(m_mismatches);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export comparison table"),
                                         QStringLiteral("comparison.csv"), tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        try {
            exportCsv(path);
        } catch (const Error& e) {
            QMessageBox::warning(this, tr("Export failed"), e.message());
        }
    });
}

QString RunComparePanel::twoRunsHint()
{
    return tr("Open two runs to overlay their accuracy.\nSamples are paired by content (suite, "
              "context, question, answer), never by id alone; runs that share no sample "
              "compare unpaired.");
}

void RunComparePanel::setRuns(const QStringList& paths, const QString& current)
{
    const QString a = pathA().isEmpty() || !paths.contains(pathA()) ? current : pathA();
    QString b = pathB();
    if (b.isEmpty() || !paths.contains(b) || b == a) {
        b.clear();
        for (const QString& p : paths)
            if (p != a) {
                b = p;
                break;
            }
    }
    m_paths = paths;
    for (auto* combo : m_pick) {
        const QSignalBlocker block(combo);
        combo->clear();
        for (const QString& p : paths)
            combo->addItem(QFileInfo(p).fileName(), p);
    }
    pick(a, b);
}

void RunComparePanel::pick(const QString& pathA, const QString& pathB)
{
    for (int i = 0; i < 2; ++i) {
        const QSignalBlocker block(m_pick[i]);
        m_pick[i]->setCurrentIndex(m_pick[i]->findData(i == 0 ? pathA : pathB));
    }
    reload();
}

QString RunComparePanel::pathA() const
{
    return m_pick[0]->currentData().toString();
}

QString RunComparePanel::pathB() const
{
    return m_pick[1]->currentData().toString();
}

QString RunComparePanel::summaryText() const
{
    return m_summary->text();
}

QStringList RunComparePanel::mismatchLines() const
{
    QStringList lines;
    for (int i = 0; i < m_mismatches->count(); ++i)
        lines << m_mismatches->item(i)->text();
    return lines;
}

void RunComparePanel::exportCsv(const QString& path) const
{
    if (m_model->rowCount() == 0)
        throw Error(QStringLiteral("%1: no comparison to export").arg(path));
    FigureExporter::saveCsv(path, m_model->csv(),
                            tr("comparison of %1 and %2").arg(m_views.nameA, m_views.nameB),
                            {m_views.summary});
}

void RunComparePanel::reload()
{
    const QString a = pathA();
    const QString b = pathB();
    m_views = {};
    m_model->setTable({});
    m_mismatches->clear();
    m_export->setEnabled(false);
    m_curves->clear();
    if (a.isEmpty() || b.isEmpty() || a == b) {
        m_curves->setEmptyHint(twoRunsHint());
        m_summary->setText(m_paths.size() < 2
                               ? tr("Open a second run (File › Open run…) to compare two runs.")
                               : tr("Pick two different runs to compare."));
        return;
    }
    m_summary->setText(tr("Comparing…"));
    // Two runs are open: the plot says what it waits for, not how to open them (a large
    // release takes seconds to pair).
    m_curves->setEmptyHint(
        tr("Comparing %1 and %2…").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()));
    m_request->run<RunComparisonViews>(
        [a, b] { return loadRunComparison(a, b); },
        [this](const RunComparisonViews& v) {
            m_views = v;
            m_summary->setText(tr("%1 vs %2 — samples: %3").arg(v.nameA, v.nameB, v.summary));
            for (const QString& m : v.mismatches)
                m_mismatches->addItem(tr("mismatched %1").arg(m));
            for (const QString& k : v.onlyA)
                m_mismatches->addItem(tr("only in A: %1").arg(k));
            for (const QString& k : v.onlyB)
                m_mismatches->addItem(tr("only in B: %1").arg(k));
            m_model->setTable(v.table);
            Provenance p;
            p.run = QStringLiteral("%1 / %2").arg(v.nameA, v.nameB);
            p.note = v.summary;
            m_curves->setProvenance(p);
            if (v.curves.isEmpty()) {
                m_curves->clear();
                m_curves->setEmptyHint(
                    tr("No configuration has rows for a matched sample in both runs.\n%1")
                        .arg(v.summary));
            } else {
                m_curves->setData(v.curves);
            }
            m_export->setEnabled(!v.table.rows.isEmpty());
            emit comparisonAvailable();
        },
        [this](const QString& error) {
            m_curves->clear();
            m_curves->setEmptyHint(error);
            m_summary->setText(error);
        });
}

} // namespace kvl
