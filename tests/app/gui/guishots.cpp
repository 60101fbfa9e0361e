// Development aid, not a test: writes a synthetic run file shaped like a small
// sweep (spans, masks, attention, layer stats) and saves a screenshot of every
// page of the window over it (page-<id>.png, at 1280 × 800, the laptop size the
// window must fit), to look at the app without a model. KVLENS_SHOT_FOCUS and
// KVLENS_SHOT_COMPARE (below) add a chosen focus and a second run.
//   kvlens_guishots OUT_DIR [run.kvl]
#include "comparepanel.h"
#include "mainwindow.h"
#include "overlaplists.h"
#include "rowspanel.h"
#include "runcomparepanel.h"
#include "sampleinspector.h"
#include "storerunloader.h"
#include "viewnavigator.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/headselector.h"
#include "views/overlapmatrixview.h"
#include "views/taxonomydata.h"
#include "windowpages.h"

#include "store/runwriter.h"

#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace kvl;

namespace {

void writeSyntheticRun(const QString& path)
{
    QFile::remove(path);
    RunWriter w(path);
    RunInfo info;
    info.modelName = QStringLiteral("kvlens-tiny (synthetic)");
    w.setRunInfo(info);
    const QStringList presses = {"SnapKV", "StreamingLLM", "TOVA"};
    const QVector<double> ratios = {0.25, 0.5, 0.75};
    ConfigRecord full;
    full.compressor = "FullCache";
    full.key = ConfigRecord::makeKey(full.compressor, 0);
    w.addConfig(full);
    for (const QString& p : presses)
        for (double r : ratios) {
            ConfigRecord c;
            c.compressor = p;
            c.ratio = r;
            c.key = ConfigRecord::makeKey(p, r);
            w.addConfig(c);
        }
    QRandomGenerator rng(7);
    const int layers = 8, heads = 2;
    for (int s = 0; s < 24; ++s) {
        const int len = 120 + 4 * (s % 5);
        SampleRecord rec;
        rec.sample.key = QStringLiteral("niah-%1").arg(s, 2, 10, QLatin1Char('0'));
        rec.sample.suite = "niah";
        rec.sample.contextLen = len;
        rec.sample.questionLen = 12;
        rec.sample.gold = QStringLiteral("%1").arg(4000 + 37 * s);
        const int ev = 50 + (s * 7) % 50;
        rec.sample.spans = QJsonArray{
            QJsonObject{{"kind", "instruction"},
                        {"start", 0},
                        {"end", 18},
                        {"order", 0},
                        {"role", "system"},
                        {"label", "system prompt"}},
            QJsonObject{{"kind", "instruction"},
                        {"start", 18},
                        {"end", 26},
                        {"order", 1},
                        {"role", "format"},
                        {"label", "format rule"}},
            QJsonObject{{"kind", "evidence"}, {"start", ev}, {"end", ev + 6}, {"label", "needle"}}};
        QString text;
        QJsonArray offsets;
        for (int t = 0; t < len; ++t) {
            QString word = t >= ev && t < ev + 6 ? QStringLiteral("key%1").arg(t - ev)
                           : t < 26              ? QStringLiteral("rule")
                                                 : QStringLiteral("hay");
            if (t == ev + 5)
                word = rec.sample.gold;
            offsets.append(QJsonArray{int(text.size()), int(text.size() + word.size())});
            text += word + QLatin1Char(' ');
        }
        rec.sample.meta = QJsonObject{{"context", text}, {"token_offsets", offsets}};
        const bool fullCorrect = s != 5;
        AttentionSummary fullAtt(layers, heads, len);
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < heads; ++h)
                for (int t = 0; t < len; ++t) {
                    double v = 0.002 + 0.001 * rng.generateDouble();
                    if (t < 2)
                        v += 0.15; // attention sink
                    if (t >= ev && t < ev + 6)
                        v += 0.02 + 0.01 * l;
                    fullAtt.at(l, h, t) = float(v);
                }
        ResultRecord fr;
        fr.configKey = full.key;
        fr.correct = fullCorrect;
        fr.answer = fullCorrect ? rec.sample.gold : QStringLiteral("4001");
        fr.attention = fullAtt;
        fr.leakage = 0.05 + 0.2 * rng.generateDouble();
        rec.results.push_back(fr);
        for (const QString& p : presses)
            for (double r : ratios) {
                KeptMask m(layers, heads, len, true);
                const int budget = int(len * (1 - r));
                for (int l = 0; l < layers; ++l)
                    for (int h = 0; h < heads; ++h) {
                        // Top-k per head under the budget, as the scorer presses select.
                        std::vector<std::pair<double, int>> scores;
                        for (int t = 0; t < len; ++t) {
                            double score;
                            if (p == "StreamingLLM")
                                score = t < 4 ? 2.0 : 1.0 + double(t) / len;
                            else {
                                score = fullAtt.at(l, h, t) + 0.004 * rng.generateDouble();
                                if (p == "TOVA" && t > len - 30)
                                    score += 0.05;
                                // Upper layers of SnapKV lose the needle at high ratios.
                                if (p == "SnapKV" && r >= 0.75 && l >= 4 && t >= ev && t < ev + 6)
                                    score = 0;
                                if (t < 26 && r >= 0.5)
                                    score *= 0.2; // the system prompt goes first
                            }
                            scores.push_back({score, t});
                        }
                        std::sort(scores.begin(), scores.end(), std::greater<>());
                        for (int t = 0; t < len; ++t)
                            m.set(l, h, t, false);
                        for (int k = 0; k < budget; ++k)
                            m.set(l, h, scores[std::size_t(k)].second, true);
                    }
                int evKept = 0;
                for (int l = 0; l < layers; ++l)
                    for (int h = 0; h < heads; ++h)
                        for (int t = ev; t < ev + 6; ++t)
                            evKept += m.at(l, h, t);
                const double ecov = double(evKept) / (layers * heads * 6);
                ResultRecord c;
                c.configKey = ConfigRecord::makeKey(p, r);
                c.correct = fullCorrect && ecov > 0.6 + 0.1 * rng.generateDouble();
                c.answer =
                    c.correct ? rec.sample.gold : QStringLiteral("4%1").arg(rng.bounded(1000));
                c.metrics.coverageType = CoverageType::MeasuredTokenCoverage;
                c.metrics.ecovSlot = ecov;
                c.metrics.errSlot = 1 - ecov;
                c.metrics.deltaNll = c.correct ? 0.05 : 0.3 + 2.0 * rng.generateDouble();
                c.metrics.ear = 0.3 + 0.6 * ecov;
                auto keepOver = [&m, layers, heads](int b, int e) {
                    int kept = 0;
                    for (int l = 0; l < layers; ++l)
                        for (int h = 0; h < heads; ++h)
                            for (int t = b; t < e; ++t)
                                kept += m.at(l, h, t);
                    return double(kept) / (layers * heads * (e - b));
                };
                const double system = keepOver(0, 18);
                c.spans = {{0, QStringLiteral("instruction"), 0, system},
                           {1, QStringLiteral("instruction"), 1, keepOver(18, 26)},
                           {2, QStringLiteral("evidence"), std::nullopt, ecov}};
                c.leakage = 0.05 + 0.6 * (1 - system) * rng.generateDouble() + 0.2 * (1 - system);
                if (!c.correct && fullCorrect)
                    c.interventions = {
                        {QStringLiteral("boost"), 4.0, rec.sample.gold, rng.generateDouble() < 0.6},
                        {QStringLiteral("sham"), 4.0, QStringLiteral("x"),
                         rng.generateDouble() < 0.15}};
                c.mask = m;
                AttentionSummary att = fullAtt;
                for (int l = 0; l < layers; ++l)
                    for (int h = 0; h < heads; ++h)
                        for (int t = 0; t < len; ++t)
                            if (!m.at(l, h, t))
                                att.at(l, h, t) = 0;
                c.attention = att;
                for (int l = 0; l < layers; ++l) {
                    int evicted = 0;
                    for (int t = ev; t < ev + 6; ++t)
                        evicted += !m.at(l, 0, t) && !m.at(l, 1, t);
                    c.layers.push_back({l, evicted / 6.0, 0.3 + 0.05 * l * r});
                }
                rec.results.push_back(c);
            }
        w.writeSample(rec);
    }
    w.setStatus("finished");
}

bool waitFor(QObject* sender, const char* signal)
{
    QSignalSpy spy(sender, signal);
    return spy.wait(10000);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath();
    QDir().mkpath(out);
    const QString run = argc > 2 ? QString::fromLocal8Bit(argv[2]) : out + "/synthetic.kvl";
    if (argc <= 2)
        writeSyntheticRun(run);
    MainWindow window;
    window.setRunStages(storeRunStages());
    window.resize(1280, 800);
    window.show();
    window.grab().save(out + "/start.png");
    window.openRun(run);
    if (!waitFor(&window, SIGNAL(runLoaded(QString))))
        return 1;
    QTest::qWait(500);
    for (const QString& id : window.navigator()->pageIds()) {
        window.showPage(PageId::fromString(id));
        QTest::qWait(300);
        window.grab().save(QStringLiteral("%1/page-%2.png").arg(out, id));
        // A page of tabs (the decoding curves): every tab, not only the first.
        auto* tabs = window.page(PageId::fromString(id))->findChild<QTabWidget*>();
        if (tabs != nullptr && tabs->count() > 1) {
            for (int i = 1; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                QTest::qWait(300);
                window.grab().save(QStringLiteral("%1/page-%2-tab%3.png").arg(out, id).arg(i));
            }
            tabs->setCurrentIndex(0);
        }
    }
    // Every layer × kv-head as small multiples (the head grid) on the attention page.
    window.showPage(pages::Attention);
    headSelector(window)->setSelection({HeadSelection::Mode::EveryHead, 0, 0});
    QTest::qWait(500);
    window.grab().save(out + "/attention-every-head.png");
    headSelector(window)->setSelection({});
    // The failure overlap with a pair clicked: its failures as three lists.
    if (auto* overlap = qobject_cast<OverlapMatrixView*>(mainViews(window).at(3));
        overlap && overlap->data().size() > 1) {
        window.showPage(pages::Overlap);
        overlap->selectPair(0, 1);
        waitFor(overlapLists(window), SIGNAL(listsAvailable()));
        QTest::qWait(300);
        window.grab().save(out + "/overlap-pair.png");
    }
    // The failure sets with a column clicked: the Rows dock lists its samples.
    if (FailureSetsView* sets = failureSetsView(window); sets && sets->hasData()) {
        window.showPage(pages::FailureSets);
        QTest::qWait(200);
        sets->selectColumn(0);
        QTest::qWait(800);
        window.grab().save(out + "/failure-sets-column.png");
    }
    const TaxonomyCounts& t = window.runData().taxonomy;
    if (!t.isEmpty()) {
        window.showPage(pages::Taxonomy);
        int bar = 0, sig = 0;
        for (int b = 0; b < t.bars.size(); ++b)
            for (int k = 0; k < t.signatures.size(); ++k)
                if (t.bars[b].counts[k] > t.bars[bar].counts[sig]) {
                    bar = b;
                    sig = k;
                }
        pageOf<TaxonomyPage>(window)->showRows({t.bars[bar].compressor, t.bars[bar].ratio,
                                                t.signatures[sig], t.bars[bar].counts[sig]});
        waitFor(&window, SIGNAL(rowsAvailable(int)));
        window.rowsPanel()->selectRow(0);
        waitFor(pageOf<SamplePage>(window), SIGNAL(detailAvailable(QString)));
        QTest::qWait(500);
        window.grab().save(out + "/inspector.png");
        // The context scrolled to its first evidence span.
        if (sampleInspector(window)->scrollToEvidence(0)) {
            QTest::qWait(300);
            window.grab().save(out + "/inspector-evidence.png");
        }
    }
    // KVLENS_SHOT_FOCUS="SnapKV,0.75,sample-key": the attention and eviction pages of one
    // configuration and sample, whole and zoomed to the first positions.
    const QStringList focus = qEnvironmentVariable("KVLENS_SHOT_FOCUS").split(QLatin1Char(','));
    if (focus.size() == 3) {
        window.session()->setFocusConfiguration(focus[0], focus[1].toDouble());
        waitFor(&window, SIGNAL(runLoaded(QString)));
        window.session()->setFocusSample(focus[2]);
        waitFor(&window, SIGNAL(runLoaded(QString)));
        for (PlotView* v : mainViews(window)) {
            auto* map = qobject_cast<PooledMapView*>(v);
            if (!map)
                continue;
            const bool eviction = qobject_cast<EvictionMapView*>(v) != nullptr;
            window.showPage(eviction ? pages::Eviction : pages::Attention);
            QTest::qWait(500);
            const QString name =
                eviction ? QStringLiteral("focus-eviction") : QStringLiteral("focus-attention");
            window.grab().save(QStringLiteral("%1/%2.png").arg(out, name));
            map->setVisibleRange(0, eviction ? 60 : 200);
            QTest::qWait(500);
            window.grab().save(QStringLiteral("%1/%2-zoomed.png").arg(out, name));
            map->resetZoom();
        }
    }
    // KVLENS_SHOT_COMPARE="b.kvl[,sample-key]": a second run opened beside the first; the
    // Compare runs page, then the Compare samples page on the sample (of b) against the
    // first run's first compressed configuration.
    const QStringList compare = qEnvironmentVariable("KVLENS_SHOT_COMPARE").split(QLatin1Char(','));
    if (!compare.first().isEmpty()) {
        window.openRun(compare.first());
        if (!waitFor(&window, SIGNAL(runLoaded(QString))))
            return 1;
        window.showPage(pages::CompareRuns);
        QTest::qWait(1500);
        window.grab().save(out + "/compare-runs.png");
        if (compare.size() > 1) {
            window.session()->setFocusSample(compare[1]);
            waitFor(&window, SIGNAL(runLoaded(QString)));
            ComparePanel* panel = comparePanel(window);
            for (int i = 0; i < 64; ++i) {
                panel->pick(2, i);
                if (panel->picked(2).path == run &&
                    panel->picked(2).config.compressor != "FullCache")
                    break;
            }
            window.showPage(pages::CompareSamples);
            QTest::qWait(1500);
            window.grab().save(out + "/compare-samples.png");
        }
        // Back to the first run: its own session draws it again, at the focus it was left
        // at (switched-back.png; the Runs dock now lists both runs).
        window.openRun(run);
        if (!waitFor(&window, SIGNAL(runLoaded(QString))))
            return 1;
        window.showPage(pages::Accuracy);
        QTest::qWait(500);
        window.grab().save(out + "/switched-back.png");
    }
    return 0;
}
