#include "comparepanel.h"

#include "latestrequest.h"
#include "views/heatmapview.h"
#include "views/signaturenames.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <array>

namespace kvl {

QString CompareChoice::label() const
{
    return runName.isEmpty() ? config.label()
                             : QStringLiteral("%1: %2").arg(runName, config.label());
}

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent), m_request(new LatestRequest(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* pickers = new QGridLayout;
    const QString names[3] = {tr("Reference (pinned):"), tr("A:"), tr("B:")};
    auto* split = new QSplitter(Qt::Vertical);
    for (int i = 0; i < 3; ++i) {
        m_combos[i] = new QComboBox;
        m_combos[i]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        pickers->addWidget(new QLabel(names[i]), 0, 2 * i);
        pickers->addWidget(m_combos[i], 0, 2 * i + 1);
        connect(m_combos[i], &QComboBox::currentIndexChanged, this, &ComparePanel::reload);
        m_maps[i] = new HeatmapView;
        m_maps[i]->setEmptyHint(tr("Pick a configuration and a sample (toolbar) to compare."));
        split->addWidget(m_maps[i]);
    }
    pickers->setColumnStretch(6, 1);
    layout->addLayout(pickers);
    layout->addWidget(split, 1);
}

void ComparePanel::setChoices(const QVector<CompareChoice>& choices)
{
    if (choices == m_choices)
        return;
    std::array<CompareChoice, 3> before = {picked(0), picked(1), picked(2)};
    m_choices = choices;
    for (int i = 0; i < 3; ++i) {
        QSignalBlocker block(m_combos[i]);
        m_combos[i]->clear();
        for (const CompareChoice& c : choices)
            m_combos[i]->addItem(c.label());
    }
    // Defaults: FullCache pinned as reference, then the first two compressed configurations.
    int full = -1;
    QVector<int> compressed;
    for (int i = 0; i < choices.size(); ++i) {
        if (choices[i].config.compressor == QLatin1String("FullCache")) {
            if (full < 0)
                full = i;
        } else {
            compressed << i;
        }
    }
    int defaults[3] = {full >= 0 ? full : 0, compressed.value(0, 0),
                       compressed.value(1, compressed.value(0, 0))};
    for (int i = 0; i < 2; ++i)
        if (const int p = int(choices.indexOf(m_preferred[i])); p >= 0)
            defaults[i + 1] = p;
    for (int i = 0; i < 3; ++i) {
        const int kept = int(choices.indexOf(before[i]));
        QSignalBlocker block(m_combos[i]);
        m_combos[i]->setCurrentIndex(kept >= 0 ? kept : defaults[i]);
    }
    reload();
}

void ComparePanel::setSample(const QString& sampleKey)
{
    if (sampleKey == m_sample)
        return;
    m_sample = sampleKey;
    reload();
}

void ComparePanel::pick(int slot, int choiceIndex)
{
    m_combos[slot]->setCurrentIndex(choiceIndex);
}

CompareChoice ComparePanel::picked(int slot) const
{
    const int i = m_combos[slot]->currentIndex();
    return i >= 0 && i < m_choices.size() ? m_choices[i] : CompareChoice{};
}

QString ComparePanel::caption(int slot) const
{
    return m_maps[slot]->title();
}

void ComparePanel::setPreferred(const CompareChoice& a, const CompareChoice& b)
{
    m_preferred[0] = a;
    m_preferred[1] = b;
}

void ComparePanel::reload()
{
    if (m_sample.isEmpty() || m_choices.isEmpty()) {
        for (int i = 0; i < 3; ++i) {
            m_maps[i]->clear();
            m_maps[i]->setTitle(picked(i).label());
        }
        return;
    }
    const std::array<CompareChoice, 3> picks = {picked(0), picked(1), picked(2)};
    const QString sample = m_sample;
    for (int i = 0; i < 3; ++i)
        m_maps[i]->setTitle(tr("%1 — loading…").arg(picks[i].label()));
    m_request->run<QVector<SampleDetail>>(
        [picks, sample] {
            QVector<SampleDetail> out;
            for (const CompareChoice& c : picks)
                out << loadSampleDetail(c.path, sample, c.config.compressor, c.config.ratio);
            return out;
        },
        [this, picks](const QVector<SampleDetail>& details) {
            for (int i = 0; i < 3; ++i) {
                const SampleDetail& d = details[i];
                QString text = picks[i].label();
                if (d.found) {
                    text +=
                        QStringLiteral(" — ") +
                        tr("answer %1 (%2)")
                            .arg(d.result.answer, d.result.correct ? tr("correct") : tr("wrong"));
                    if (d.result.signature)
                        text += QStringLiteral(" · ") +
                                signatureDisplayName(signatureName(*d.result.signature));
                } else {
                    text += QStringLiteral(" — ") + tr("no row for sample %1").arg(m_sample);
                }
                m_maps[i]->setTitle(text);
                Provenance p;
                p.run = picks[i].runName;
                p.compressor = picks[i].config.compressor;
                p.ratio = picks[i].config.ratio;
                p.note = tr("sample %1").arg(m_sample);
                m_maps[i]->setProvenance(p);
                if (d.heatmap.isEmpty())
                    m_maps[i]->clear();
                else
                    m_maps[i]->setData(d.heatmap);
            }
            emit detailsAvailable();
        },
        [this](const QString& error) {
            for (int i = 0; i < 3; ++i)
                m_maps[i]->setTitle(error);
        });
}

} // namespace kvl
