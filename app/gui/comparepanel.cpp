#include "comparepanel.h"

#include "latestrequest.h"
#include "store/runreader.h"
#include "store/samplematching.h"
#include "views/heatmapview.h"
#include "views/signaturenames.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <map>

namespace kvl {

namespace {
// Characters of an answer shown in a panel's title (the full answer is in the Rows dock
// and the inspector).
constexpr qsizetype kCaptionAnswerChars = 48;
} // namespace

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
        m_sampleCombos[i] = new QComboBox;
        m_sampleCombos[i]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        m_sampleCombos[i]->setToolTip(
            tr("The sample this panel shows: the one selected in the toolbar, or one of its "
               "own to compare two samples under one configuration"));
        pickers->addWidget(new QLabel(tr("Sample:")), 1, 2 * i);
        pickers->addWidget(m_sampleCombos[i], 1, 2 * i + 1);
        connect(m_combos[i], &QComboBox::currentIndexChanged, this, [this, i] {
            fillSampleChooser(i);
            reload();
        });
        connect(m_sampleCombos[i], &QComboBox::currentIndexChanged, this, &ComparePanel::reload);
        m_maps[i] = new HeatmapView;
        m_maps[i]->setEmptyHint(idleHint());
        split->addWidget(m_maps[i]);
    }
    // One colour range and one zoom over the three panels: equal colours mean equal
    // attention in the reference, A and B (View menu: per-panel scales).
    HeatmapView::linkScales({m_maps[0], m_maps[1], m_maps[2]});
    pickers->setColumnStretch(6, 1);
    layout->addLayout(pickers);
    m_match = new QLabel;
    m_match->setWordWrap(true);
    m_match->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_match->hide();
    layout->addWidget(m_match);
    layout->addWidget(split, 1);
}

void ComparePanel::setChoices(const QVector<CompareChoice>& choices,
                              const QHash<QString, QStringList>& keysByRun)
{
    if (choices == m_choices && keysByRun == m_runSamples)
        return;
    m_runSamples = keysByRun;
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
        if (choices[i].config.compressor == kFullCacheCompressor) {
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
        fillSampleChooser(i);
    }
    reload();
}

void ComparePanel::fillSampleChooser(int slot)
{
    QComboBox* combo = m_sampleCombos[slot];
    const QString kept = pickedSample(slot);
    const QStringList keys = m_runSamples.value(picked(slot).path);
    QSignalBlocker block(combo);
    combo->clear();
    combo->addItem(tr("selected in the toolbar"), QString());
    for (const QString& key : keys)
        combo->addItem(key, key);
    combo->setCurrentIndex(std::max(0, combo->findData(kept)));
}

QString ComparePanel::idleHint() const
{
    return m_idleHint.isEmpty() ? tr("Pick a configuration and a sample (toolbar) to compare.")
                                : m_idleHint;
}

void ComparePanel::setIdleHint(const QString& hint)
{
    m_idleHint = hint;
    for (int i = 0; i < 3; ++i)
        if (!m_maps[i]->hasData())
            m_maps[i]->setEmptyHint(idleHint());
}

void ComparePanel::pickSample(int slot, const QString& sampleKey)
{
    const int i = m_sampleCombos[slot]->findData(sampleKey);
    if (i >= 0)
        m_sampleCombos[slot]->setCurrentIndex(i);
}

QString ComparePanel::pickedSample(int slot) const
{
    return m_sampleCombos[slot]->currentData().toString();
}

void ComparePanel::setSample(const QString& sampleKey, const QString& runPath)
{
    if (sampleKey == m_sample && runPath == m_sampleRun)
        return;
    m_sample = sampleKey;
    m_sampleRun = runPath;
    reload();
}

QString ComparePanel::matchSummary() const
{
    return m_match->isHidden() ? QString() : m_match->text();
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

namespace {

// What one reload loads: per slot the key shown (empty: refused, with the reason).
struct CompareLoad
{
    std::array<QString, 3> keys;
    std::array<QString, 3> refusals;
    QVector<SampleDetail> details;
    QStringList matchSummaries;
};

QString runLabel(const QString& path)
{
    return QFileInfo(path).completeBaseName();
}

// `own[i]`: the sample slot i shows instead of the selected one (its key in its run).
CompareLoad loadCompare(const std::array<CompareChoice, 3>& picks,
                        const std::array<QString, 3>& own, const QString& sample,
                        const QString& sampleRun)
{
    CompareLoad load;
    std::map<QString, SampleMatching> matchings; // by the other run's path
    for (int i = 0; i < 3; ++i) {
        const CompareChoice& c = picks[i];
        QString key = own[i].isEmpty() ? sample : own[i];
        if (own[i].isEmpty() && !key.isEmpty() && !sampleRun.isEmpty() && !c.path.isEmpty() &&
            c.path != sampleRun) {
            auto it = matchings.find(c.path);
            if (it == matchings.end()) {
                RunReader a(sampleRun);
                RunReader b(c.path);
                it = matchings.emplace(c.path, matchSamples(a.samples(), b.samples())).first;
                load.matchSummaries
                    << QCoreApplication::translate("kvl::ComparePanel", "%1 vs %2: %3")
                           .arg(runLabel(sampleRun), runLabel(c.path),
                                it->second.summary(runLabel(sampleRun), runLabel(c.path)));
            }
            const SampleMatching& m = it->second;
            key = m.keyInB(sample).value_or(QString());
            if (key.isEmpty()) {
                QString why;
                for (const SampleMismatch& mm : m.mismatched)
                    if (mm.key == sample)
                        why = QCoreApplication::translate(
                                  "kvl::ComparePanel",
                                  "sample %1 not compared: in %2 this id names another sample "
                                  "(%3)")
                                  .arg(sample, runLabel(c.path), mm.why);
                if (why.isEmpty())
                    why = QCoreApplication::translate("kvl::ComparePanel",
                                                      "sample %1 not compared: %2 holds no "
                                                      "sample with the same content")
                              .arg(sample, runLabel(c.path));
                load.refusals[i] = why;
            }
        }
        load.keys[i] = key;
        load.details << (key.isEmpty()
                             ? SampleDetail{}
                             : loadSampleDetail(c.path, key, c.config.compressor, c.config.ratio));
    }
    return load;
}

} // namespace

void ComparePanel::reload()
{
    const std::array<QString, 3> own = {pickedSample(0), pickedSample(1), pickedSample(2)};
    const bool anySample =
        !m_sample.isEmpty() ||
        std::any_of(own.begin(), own.end(), [](const QString& k) { return !k.isEmpty(); });
    if (!anySample || m_choices.isEmpty()) {
        m_match->hide();
        for (int i = 0; i < 3; ++i) {
            m_slotSample[i].clear();
            m_maps[i]->clear();
            m_maps[i]->setTitle(picked(i).label());
        }
        return;
    }
    const std::array<CompareChoice, 3> picks = {picked(0), picked(1), picked(2)};
    const QString sample = m_sample;
    const QString sampleRun = m_sampleRun.isEmpty() ? m_choices.first().path : m_sampleRun;
    for (int i = 0; i < 3; ++i)
        m_maps[i]->setTitle(tr("%1 — loading…").arg(picks[i].label()));
    m_request->run<CompareLoad>(
        [picks, own, sample, sampleRun] { return loadCompare(picks, own, sample, sampleRun); },
        [this, picks, own](const CompareLoad& load) {
            m_match->setText(load.matchSummaries.join(QLatin1Char('\n')));
            m_match->setVisible(!load.matchSummaries.isEmpty());
            for (int i = 0; i < 3; ++i) {
                const SampleDetail& d = load.details[i];
                m_slotSample[i] = load.keys[i];
                QString text = picks[i].label();
                if (!load.refusals[i].isEmpty()) {
                    text += QStringLiteral(" — ") + load.refusals[i];
                } else if (d.found) {
                    if (!own[i].isEmpty())
                        text += QStringLiteral(" — ") + tr("sample %1").arg(load.keys[i]);
                    else if (load.keys[i] != m_sample)
                        text += QStringLiteral(" — ") +
                                tr("sample %1 (same content as %2)").arg(load.keys[i], m_sample);
                    // A runaway answer is cut: a title wider than the panel widens the
                    // plot's layout past the widget and pushes its map out of line.
                    QString answer = d.result.answer.simplified();
                    if (answer.size() > kCaptionAnswerChars)
                        answer = answer.left(kCaptionAnswerChars - 1) + QChar(0x2026);
                    text += QStringLiteral(" — ") +
                            tr("answer %1 (%2)")
                                .arg(answer, d.result.correct ? tr("correct") : tr("wrong"));
                    if (d.result.signature)
                        text += QStringLiteral(" · ") +
                                signatureDisplayName(signatureName(*d.result.signature));
                } else if (!load.keys[i].isEmpty()) {
                    text += QStringLiteral(" — ") + tr("no row for sample %1").arg(load.keys[i]);
                }
                m_maps[i]->setTitle(text);
                Provenance p;
                p.run = picks[i].runName;
                p.compressor = picks[i].config.compressor;
                p.ratio = picks[i].config.ratio;
                p.note = tr("sample %1").arg(load.keys[i].isEmpty() ? m_sample : load.keys[i]);
                m_maps[i]->setProvenance(p);
                // A slot without a map says why: refused, attention not stored for the
                // row, or not released by the source it was imported from.
                QString why = idleHint();
                if (!load.refusals[i].isEmpty())
                    why = QStringLiteral("%1\n%2").arg(picks[i].label(), load.refusals[i]);
                else if (!d.heatmapMissing.isEmpty())
                    why = d.heatmapMissing;
                else if (!d.notReleased.isEmpty())
                    why = d.notReleased;
                m_maps[i]->setEmptyHint(why);
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
