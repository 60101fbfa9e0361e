// Run store round trip, resume queries and the aggregates of the views/report on the
// hand-built run of storefixtures.h (expected values worked out by hand below).
#include "storefixtures.h"

#include "common/error.h"
#include "store/resultcolumns.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/runschema.h"
#include "store/runwriter.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;
using namespace kvl::test;

class TestRunStore : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }
    static bool near(double a, double b) { return std::abs(a - b) < 1e-9; }

  private slots:
    void roundTripEveryField()
    {
        const QString file = path("roundtrip.kvl");
        SampleRecord rec;
        rec.sample.key = QStringLiteral("suite/7");
        rec.sample.suite = QStringLiteral("suite");
        rec.sample.sourceId = QStringLiteral("7");
        rec.sample.contextLen = 5;
        rec.sample.questionLen = 2;
        rec.sample.gold = QStringLiteral("Paris");
        rec.sample.meta = QJsonObject{{QStringLiteral("placement"), QStringLiteral("flipped")}};
        rec.sample.spans =
            QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("evidence")},
                                   {QStringLiteral("start"), 1},
                                   {QStringLiteral("end"), 3}}};
        ResultRecord full;
        full.configKey = ConfigRecord::makeKey(QStringLiteral("FullCache"), 0.0);
        full.correct = true;
        full.answer = QStringLiteral("Paris");
        ResultRecord r;
        r.configKey = ConfigRecord::makeKey(QStringLiteral("SnapKV"), 0.5);
        r.answer = QStringLiteral("Lyon");
        r.correct = false;
        r.score = 0.0;
        r.metrics = {0.25, 0.95, 0.4, 0.05,         0.951229,
                     0.01, 0.95, 2.0, std::nullopt, CoverageType::MeasuredTokenCoverage};
        r.ger = 0.125;
        r.leakage = 0.42;
        r.compliance = QJsonObject{{QStringLiteral("no_comma"), true}};
        r.text2json = 55.5;
        r.kvBytes = 123456789012LL;
        r.timings = {10.5, 1.25, 30.0, std::nullopt};
        r.extra = QJsonObject{{QStringLiteral("note"), QStringLiteral("x")}};
        r.layers = {{0, 0.0, 0.5}, {1, 0.25, std::nullopt}};
        r.spans = {{0, QStringLiteral("evidence"), std::nullopt, 0.75}};
        KeptMask mask(2, 2, 5, false);
        mask.set(0, 1, 3, true);
        mask.set(1, 0, 4, true);
        r.mask = mask;
        AttentionSummary att(2, 2, 5);
        att.at(0, 0, 1) = 0.5f; // values exact in half precision
        att.at(1, 1, 4) = 0.125f;
        att.at(0, 1, 0) = 0.25f;
        r.attention = att;
        r.interventions = {{QStringLiteral("boost"), 4.0, QStringLiteral("Paris"), true}};
        rec.results = {r, full}; // FullCache second: the decisions do not depend on order
        const std::vector<ConfigRecord> configs = {config(QStringLiteral("FullCache"), 0.0),
                                                   config(QStringLiteral("SnapKV"), 0.5)};
        {
            // The store persists rows as given: an undecided row stays undecided.
            RunWriter w(path("undecided.kvl"));
            for (const ConfigRecord& c : configs)
                w.addConfig(c);
            w.writeSample(rec);
        }
        {
            RunReader undecided(path("undecided.kvl"));
            for (const StoredResult& row : undecided.results())
                QVERIFY(!row.record.transition && !row.record.signature);
        }
        decideRows(rec, configs); // what the run does before it writes
        {
            RunWriter w(file);
            w.setRunInfo(runInfo());
            for (const ConfigRecord& c : configs)
                w.addConfig(c);
            w.writeSample(rec);
        }
        RunReader reader(file);
        QCOMPARE(reader.schemaVersion(), RunSchema::kCurrentVersion);
        const RunInfo info = reader.runInfo();
        QCOMPARE(info.spec, runInfo().spec);
        QCOMPARE(info.modelHash, QStringLiteral("abc123"));
        QCOMPARE(info.status, QStringLiteral("running"));
        QVERIFY(!info.createdAt.isEmpty());
        const std::optional<SampleInfo> s = reader.sample(QStringLiteral("suite/7"));
        QVERIFY(s);
        QCOMPARE(s->gold, QStringLiteral("Paris"));
        QCOMPARE(s->spans, rec.sample.spans);
        QCOMPARE(s->meta, rec.sample.meta);
        QCOMPARE(s->contextLen, 5);

        ResultFilter f;
        f.compressor = QStringLiteral("SnapKV");
        f.ratio = 0.5;
        const std::vector<StoredResult> rows = reader.results(f);
        QCOMPARE(rows.size(), std::size_t(1));
        const ResultRecord& got = rows[0].record;
        QCOMPARE(got.answer, r.answer);
        QCOMPARE(got.correct, false);
        QCOMPARE(got.score, r.score);
        QCOMPARE(got.transition, Transition::CorrectToWrong); // FullCache correct, this wrong
        // C→W with ECov 0.95 and |dNLL| 0.05 ≤ 0.1, TopK 0.95 -> decode_scorer_candidate
        QCOMPARE(got.signature, Signature::DecodeScorerCandidate);
        QCOMPARE(got.metrics, r.metrics);
        QCOMPARE(got.ger, r.ger);
        QCOMPARE(got.leakage, r.leakage);
        QCOMPARE(got.compliance, r.compliance);
        QCOMPARE(got.text2json, r.text2json);
        QCOMPARE(got.kvBytes, r.kvBytes);
        QCOMPARE(got.timings.prefillMs, r.timings.prefillMs);
        QCOMPARE(got.timings.compressMs, r.timings.compressMs);
        QCOMPARE(got.timings.answerMs, r.timings.answerMs);
        QVERIFY(!got.timings.diagnoseMs);
        QCOMPARE(got.extra, r.extra);
        QVERIFY(rows[0].hasMask && rows[0].hasAttention);
        QCOMPARE(rows[0].sampleKey, QStringLiteral("suite/7"));
        QCOMPARE(rows[0].suite, QStringLiteral("suite"));

        QCOMPARE(*reader.mask(rows[0].sampleId, rows[0].configId), mask);
        QCOMPARE(*reader.attention(rows[0].sampleId, rows[0].configId), att);
        const std::vector<LayerStat> layers = reader.layerStats(rows[0].sampleId, rows[0].configId);
        QCOMPARE(layers.size(), std::size_t(2));
        QCOMPARE(layers[1].ger, 0.25);
        QVERIFY(!layers[1].consensus);
        const std::vector<SpanKeep> spans = reader.spanKeeps(rows[0].sampleId, rows[0].configId);
        QCOMPARE(spans.size(), std::size_t(1));
        QCOMPARE(spans[0].keepRate, 0.75);
        QVERIFY(!spans[0].instructionOrder);
        const auto iv = reader.interventions(rows[0].sampleId, rows[0].configId);
        QCOMPARE(iv.size(), std::size_t(1));
        QVERIFY(iv[0].repaired);

        // FullCache row: no transition, no signature, no mask.
        f.compressor = QStringLiteral("FullCache");
        f.ratio = 0.0;
        const std::vector<StoredResult> fullRows = reader.results(f);
        QCOMPARE(fullRows.size(), std::size_t(1));
        QVERIFY(!fullRows[0].record.transition && !fullRows[0].record.signature);
        QVERIFY(!reader.mask(fullRows[0].sampleId, fullRows[0].configId));
    }

    void resumeQueriesAndReopen()
    {
        const QString file = path("resume.kvl");
        writeHandRun(file, {0, 1});
        {
            RunWriter w(file); // reopen: configs and run info come from the file
            QCOMPARE(w.completedSampleKeys(), (QSet<QString>{"s0", "s1"}));
            QVERIFY(w.hasResult(QStringLiteral("s1"), QStringLiteral("TOVA@0.5")));
            QVERIFY(!w.hasResult(QStringLiteral("s2"), QStringLiteral("TOVA@0.5")));
            QCOMPARE(w.completedResults().size(), 8); // 2 samples x 4 configurations
            QVERIFY(w.completedResults().contains(
                {QStringLiteral("s0"), QStringLiteral("SnapKV@0.75")}));
            QCOMPARE(w.configs().size(), std::size_t(4));
            QCOMPARE(w.runInfo()->status, QStringLiteral("finished"));
            w.writeSample(handSample(2));
            // Unregistered configuration: a clear error, and the sample is rolled back.
            SampleRecord bad = handSample(3);
            bad.results[1].configKey = QStringLiteral("nope");
            QVERIFY_THROWS_EXCEPTION(Error, w.writeSample(bad));
            QVERIFY(!w.inSample());
        }
        RunReader reader(file);
        QCOMPARE(reader.sampleCount(), 3);
        QCOMPARE(reader.resultCount(), 12);
        QCOMPARE(reader.completedResults().size(), std::size_t(12));
        QCOMPARE(reader.completedResults().front(),
                 (std::pair<QString, QString>{"s0", "FullCache@0"}));
    }

    void rewritingASampleReplacesItsRows()
    {
        const QString file = path("rewrite.kvl");
        writeHandRun(file, {0});
        {
            RunWriter w(file);
            SampleRecord again = handSample(0);
            again.results[1].spans.resize(1); // fewer spans than before
            w.writeSample(again);
        }
        RunReader reader(file);
        QCOMPARE(reader.resultCount(), 4);
        ResultFilter f;
        f.configKey = QStringLiteral("SnapKV@0.5");
        const auto rows = reader.results(f);
        QCOMPARE(reader.spanKeeps(rows[0].sampleId, rows[0].configId).size(), std::size_t(1));
    }

    // The report's accuracy table carries each cell's mean cache bytes (result.kv_bytes)
    // over the rows that stored them: FullCache 1000 and 1000 in niah (mean 1000);
    // SnapKV@0.5 500 and 300 (400); TOVA@0.5 stored one row of 600 (600); SnapKV@0.75
    // none (null). Samples 0 and 1 are the niah cell.
    void reportHasMeanCacheBytes()
    {
        const QString file = path("bytes.kvl");
        writeRunOf(
            file, runInfo(), {0, 1},
            [](int s) {
                SampleRecord rec = handSample(s);
                rec.results[0].kvBytes = 1000;
                rec.results[1].kvBytes = s == 0 ? 500 : 300;
                if (s == 1)
                    rec.results[2].kvBytes = 600;
                return rec;
            },
            QStringLiteral("finished"));
        RunReader reader(file);
        const auto acc = reader.accuracy();
        QCOMPARE(acc.size(), std::size_t(4));
        QCOMPARE(acc[0].kvBytes, std::optional<double>(1000.0));
        QCOMPARE(acc[1].kvBytes, std::optional<double>(400.0)); // SnapKV@0.5
        QCOMPARE(acc[2].kvBytes, std::optional<double>());      // SnapKV@0.75
        QCOMPARE(acc[3].kvBytes, std::optional<double>(600.0)); // TOVA@0.5
        const ReportTable table = buildRunReport(reader).front();
        QCOMPARE(table.name, QStringLiteral("accuracy"));
        const qsizetype column = table.columns.indexOf(QStringLiteral("kv_bytes"));
        QVERIFY(column >= 0);
        QCOMPARE(table.rows[1][column].toDouble(), 400.0);
        QVERIFY(table.rows[2][column].isNull());
    }

    void aggregatesOfTheHandRun()
    {
        const QString file = path("hand.kvl");
        writeHandRun(file, {0, 1, 2, 3});
        RunReader reader(file);

        // Accuracy: FullCache first, then compressors alphabetically, ratio, suite.
        const auto acc = reader.accuracy();
        QCOMPARE(acc.size(), std::size_t(8));
        const std::vector<std::tuple<QString, double, QString, int, int>> expectAcc = {
            {"FullCache", 0.0, "niah", 2, 2}, {"FullCache", 0.0, "qa", 2, 1},
            {"SnapKV", 0.5, "niah", 2, 1},    {"SnapKV", 0.5, "qa", 2, 1},
            {"SnapKV", 0.75, "niah", 2, 0},   {"SnapKV", 0.75, "qa", 2, 1},
            {"TOVA", 0.5, "niah", 2, 0},      {"TOVA", 0.5, "qa", 2, 1}};
        for (std::size_t i = 0; i < acc.size(); ++i) {
            const auto& [comp, ratio, suite, n, correct] = expectAcc[i];
            QCOMPARE(acc[i].compressor, comp);
            QCOMPARE(acc[i].ratio, ratio);
            QCOMPARE(acc[i].suite, suite);
            QCOMPARE(acc[i].n, n);
            QCOMPARE(acc[i].correct, correct);
            QCOMPARE(acc[i].accuracy, double(correct) / n);
        }

        // Transitions (C→C, C→W, W→C, W→W): SnapKV@0.5 s0 CC, s1 CW, s2 WC, s3 CW;
        // SnapKV@0.75 and TOVA@0.5: s0 CW, s1 CW, s2 WW, s3 CC.
        const auto tr = reader.transitions();
        QCOMPARE(tr.size(), std::size_t(3));
        QCOMPARE(tr[0].compressor, QStringLiteral("SnapKV"));
        QCOMPARE(tr[0].ratio, 0.5);
        QCOMPARE((std::vector<qint64>{tr[0].correctToCorrect, tr[0].correctToWrong,
                                      tr[0].wrongToCorrect, tr[0].wrongToWrong}),
                 (std::vector<qint64>{1, 2, 1, 0}));
        for (int i : {1, 2})
            QCOMPARE((std::vector<qint64>{tr[i].correctToCorrect, tr[i].correctToWrong,
                                          tr[i].wrongToCorrect, tr[i].wrongToWrong}),
                     (std::vector<qint64>{1, 2, 0, 1}));
        QVERIFY(near(*tr[0].failureRate(), 2.0 / 3.0)); // 2 C→W of 3 FullCache-correct

        // Signatures of C→W rows; shares within each cell.
        const auto sig = reader.signatures();
        QCOMPARE(sig.size(), std::size_t(5));
        const std::vector<std::tuple<QString, double, QString, int, double>> expectSig = {
            {"SnapKV", 0.5, "low_mapped_coverage", 1, 0.5},
            {"SnapKV", 0.5, "partial_mapped_coverage", 1, 0.5},
            {"SnapKV", 0.75, "low_mapped_coverage", 2, 1.0},
            {"TOVA", 0.5, "high_mapped_coverage_likelihood_drift", 1, 0.5},
            {"TOVA", 0.5, "low_mapped_coverage", 1, 0.5}};
        for (std::size_t i = 0; i < sig.size(); ++i) {
            const auto& [comp, ratio, name, count, share] = expectSig[i];
            QCOMPARE(sig[i].compressor, comp);
            QCOMPARE(sig[i].ratio, ratio);
            QCOMPARE(sig[i].signature, name);
            QCOMPARE(sig[i].count, count);
            QCOMPARE(sig[i].share, share);
        }

        // Over all cells: 6 C→W rows, low 4 (2/3), partial 1, high drift 1 (1/6 each).
        const auto totals = reader.signatureTotals();
        QCOMPARE(totals.size(), std::size_t(3));
        QCOMPARE(totals[0].signature, QStringLiteral("high_mapped_coverage_likelihood_drift"));
        QCOMPARE(totals[0].count, 1);
        QCOMPARE(totals[1].signature, QStringLiteral("low_mapped_coverage"));
        QCOMPARE(totals[1].count, 4);
        QVERIFY(near(totals[1].share, 4.0 / 6.0));
        QCOMPARE(totals[2].signature, QStringLiteral("partial_mapped_coverage"));

        // Failure sets at 0.5: SnapKV {s1,s3}, TOVA {s0,s1}: A-only 1, B-only 1, both 1,
        // Jaccard 1/3. At 0.75 SnapKV is alone: no pair.
        const auto ov = reader.failureOverlaps();
        QCOMPARE(ov.size(), std::size_t(1));
        QCOMPARE(ov[0].ratio, 0.5);
        QCOMPARE(ov[0].a, QStringLiteral("SnapKV"));
        QCOMPARE(ov[0].b, QStringLiteral("TOVA"));
        QCOMPARE(ov[0].aOnly, 1);
        QCOMPARE(ov[0].bOnly, 1);
        QCOMPARE(ov[0].both, 1);
        QVERIFY(near(*ov[0].jaccard, 1.0 / 3.0));

        // Instruction spans of SnapKV@0.5: order 0 mean (0.2+0.4+0.6+0.8)/4 = 0.5,
        // order 1 mean 1.0; the evidence span is not an instruction.
        const auto spans = reader.spanKeepByOrder();
        QCOMPARE(spans.size(), std::size_t(2));
        QCOMPARE(spans[0].order, 0);
        QCOMPARE(spans[0].n, 4);
        QVERIFY(near(spans[0].meanKeepRate, 0.5));
        QCOMPARE(spans[1].order, 1);
        QVERIFY(near(spans[1].meanKeepRate, 1.0));

        // Leakage of SnapKV@0.5: niah (0.1, 0.5) mean 0.3, 1 leak; qa (0.31, 0.3) mean
        // 0.305, 1 leak (0.3 is not > 0.3).
        const auto lk = reader.leakage();
        QCOMPARE(lk.size(), std::size_t(2));
        QCOMPARE(lk[0].suite, QStringLiteral("niah"));
        QVERIFY(near(lk[0].meanRecall, 0.3));
        QCOMPARE(lk[0].leaks, 1);
        QCOMPARE(lk[0].leakRate, 0.5);
        QCOMPARE(lk[1].suite, QStringLiteral("qa"));
        QVERIFY(near(lk[1].meanRecall, 0.305));
        QCOMPARE(lk[1].leaks, 1);

        // Layers of SnapKV@0.5: layer 0 GER (0+0.5+1+0.5)/4 = 0.5, no consensus;
        // layer 1 GER 0, consensus 0.25.
        const auto ger = reader.layerStatsByLayer();
        QCOMPARE(ger.size(), std::size_t(2));
        QVERIFY(near(*ger[0].meanGer, 0.5));
        QVERIFY(!ger[0].meanConsensus);
        QCOMPARE(*ger[1].meanGer, 0.0);
        QCOMPARE(*ger[1].meanConsensus, 0.25);
        // Of one compressor (the GER view's focus): the same cells, or none.
        const auto snapGer = reader.layerStatsByLayer(QStringLiteral("SnapKV"));
        QCOMPARE(snapGer.size(), std::size_t(2));
        QCOMPARE(*snapGer[0].meanGer, *ger[0].meanGer);
        QCOMPARE(*snapGer[1].meanConsensus, 0.25);
        QVERIFY(reader.layerStatsByLayer(QStringLiteral("TOVA")).empty());

        // Interventions of TOVA@0.5: boost 1 of 2 repaired, sham 0 of 2.
        const auto iv = reader.interventionRates();
        QCOMPARE(iv.size(), std::size_t(2));
        QCOMPARE(iv[0].kind, QStringLiteral("boost"));
        QCOMPARE(iv[0].n, 2);
        QCOMPARE(iv[0].repairRate, 0.5);
        QCOMPARE(*iv[0].beta, 4.0);
        QCOMPARE(iv[1].kind, QStringLiteral("sham"));
        QCOMPARE(iv[1].repairRate, 0.0);

        // Row filters.
        ResultFilter f;
        f.transition = Transition::CorrectToWrong;
        QCOMPARE(reader.results(f).size(), std::size_t(6));
        f.signature = Signature::LowMappedCoverage;
        QCOMPARE(reader.results(f).size(), std::size_t(4));
        f = {};
        f.suite = QStringLiteral("qa");
        f.correct = true;
        QCOMPARE(reader.results(f).size(), std::size_t(4)); // s2: SnapKV@0.5; s3: 3 rows
        f = {};
        f.limit = 5;
        f.offset = 2;
        QCOMPARE(reader.results(f).size(), std::size_t(5));
    }

    void layerJsonParsing()
    {
        // The writer's compact form (fast parser) and hand-written JSON (fallback).
        for (const QByteArray text : {QByteArray("[[0,0.5,null],[3,1e-3,0.25]]"),
                                      QByteArray(" [ [0, 0.5, null], [3, 0.001, 0.25] ] ")}) {
            const std::vector<LayerStat> l = layerStatsFromJsonUtf8(text);
            QCOMPARE(l.size(), std::size_t(2));
            QCOMPARE(l[0].layer, 0);
            QCOMPARE(l[0].ger, 0.5);
            QVERIFY(!l[0].consensus);
            QCOMPARE(l[1].layer, 3);
            QCOMPARE(l[1].ger, 0.001);
            QCOMPARE(l[1].consensus, 0.25);
        }
        QVERIFY(layerStatsFromJsonUtf8(QByteArray()).empty());
        // A damaged file's layer that is no index (found by libFuzzer: 5.6e115 was cast
        // to int) is left out, in either parser, never read as another layer.
        for (const QByteArray text :
             {QByteArray("[[0,0.5,null],[5.5e115,0.1,0.1],[-1,0.2,0.2],[2.5,0.3,0.3]]"),
              QByteArray(" [ [0, 0.5, null], [5.5e115, 0.1, 0.1], [-1, 0.2, 0.2] ] ")}) {
            const std::vector<LayerStat> l = layerStatsFromJsonUtf8(text);
            QCOMPARE(l.size(), std::size_t(1));
            QCOMPARE(l[0].layer, 0);
        }
        const std::vector<LayerStat> written = {{0, 0.1, std::nullopt}, {1, 1.0 / 3.0, 0.75}};
        const std::vector<LayerStat> back =
            layerStatsFromJsonUtf8(layerStatsJson(written).toUtf8());
        QCOMPARE(back.size(), std::size_t(2));
        QCOMPARE(back[1].ger, 1.0 / 3.0); // shortest round-trip text is exact
        QVERIFY(!back[0].consensus);
    }

    // Intervention rows are reported by target group, the group read from each row's
    // stored diagnostics; each target of the spec says how many rows it selects.
    void interventionsByTargetGroup()
    {
        const auto writeRun = [&](const QString& file, const QJsonArray& targets,
                                  bool withRetained) {
            RunInfo info = runInfo();
            QJsonArray interventions;
            for (const QJsonValue& t : targets)
                interventions.append(QJsonObject{{QStringLiteral("kind"), QStringLiteral("boost")},
                                                 {QStringLiteral("on"), t}});
            info.spec.insert(QStringLiteral("interventions"), interventions);
            RunWriter w(file);
            w.setRunInfo(info);
            w.addConfig(config(QStringLiteral("FullCache"), 0.0));
            w.addConfig(config(QStringLiteral("SnapKV"), 0.5));
            // (coverage, ECov, EAR, correct, interventions: boost repaired?)
            struct Row
            {
                CoverageType coverage;
                std::optional<double> ecov;
                std::optional<double> ear;
                bool correct;
                std::optional<bool> boostRepaired;
            };
            std::vector<Row> rows = {
                // evicted_low_ear: C->W, EAR 0.3, ECov 0.2; boost fails.
                {CoverageType::MeasuredTokenCoverage, 0.2, 0.3, false, false},
                // other_c_to_w: C->W, EAR 0.7.
                {CoverageType::MeasuredTokenCoverage, 0.95, 0.7, false, std::nullopt},
                // not_c_to_w: C->C.
                {CoverageType::MeasuredTokenCoverage, 0.95, 0.3, true, std::nullopt},
            };
            if (withRetained) {
                // retained: C->W, ECov 0.95 (mapped) and EAR 0.3; boost repairs.
                rows.push_back({CoverageType::MeasuredTokenCoverage, 0.95, 0.3, false, true});
                // retained: structurally addressable (no ECov), EAR 0.4; boost fails.
                rows.push_back({CoverageType::StructuralPositionAddressability, std::nullopt, 0.4,
                                false, false});
            }
            for (size_t i = 0; i < rows.size(); ++i) {
                SampleRecord rec;
                rec.sample.key = QStringLiteral("s/%1").arg(i);
                rec.sample.gold = QStringLiteral("Paris");
                ResultRecord full;
                full.configKey = ConfigRecord::makeKey(QStringLiteral("FullCache"), 0.0);
                full.correct = true;
                ResultRecord r;
                r.configKey = ConfigRecord::makeKey(QStringLiteral("SnapKV"), 0.5);
                r.correct = rows[i].correct;
                r.metrics.coverageType = rows[i].coverage;
                r.metrics.ecovSlot = rows[i].ecov;
                r.metrics.ear = rows[i].ear;
                if (rows[i].boostRepaired)
                    r.interventions = {
                        {QStringLiteral("boost"), 4.0, QStringLiteral("x"), *rows[i].boostRepaired},
                        {QStringLiteral("sham"), 4.0, QStringLiteral("y"), false}};
                rec.results = {full, r};
                decideRows(rec, {config(QStringLiteral("FullCache"), 0.0),
                                 config(QStringLiteral("SnapKV"), 0.5)});
                w.writeSample(rec);
            }
        };

        const QString file = path("groups.kvl");
        writeRun(file, {QStringLiteral("retained"), QStringLiteral("low_ear")}, true);
        RunReader reader(file);
        QStringList cells;
        for (const InterventionGroupCell& c : reader.interventionRatesByGroup())
            cells << QStringLiteral("%1 %2 %3/%4")
                         .arg(interventionGroupName(c.group), c.kind)
                         .arg(c.repaired)
                         .arg(c.n);
        QCOMPARE(cells, (QStringList{QStringLiteral("retained boost 1/2"),
                                     QStringLiteral("retained sham 0/2"),
                                     QStringLiteral("evicted_low_ear boost 0/1"),
                                     QStringLiteral("evicted_low_ear sham 0/1")}));
        QStringList counts;
        for (const InterventionGroupCount& g : reader.interventionGroupCounts())
            counts << QStringLiteral("%1 %2/%3")
                          .arg(interventionGroupName(g.group))
                          .arg(g.intervened)
                          .arg(g.rows);
        QCOMPARE(
            counts,
            (QStringList{QStringLiteral("retained 2/2"), QStringLiteral("evicted_low_ear 1/1"),
                         QStringLiteral("other_c_to_w 0/1"), QStringLiteral("not_c_to_w 0/1")}));

        const QJsonObject json = runReportJson(reader);
        const QJsonArray groups = json.value(QLatin1String("intervention_groups")).toArray();
        QCOMPARE(groups.size(), 4);
        QCOMPARE(groups[0].toObject().value(QLatin1String("group")).toString(),
                 QStringLiteral("retained"));
        QCOMPARE(groups[0].toObject().value(QLatin1String("repair_rate")).toDouble(), 0.5);
        const QJsonArray targets = json.value(QLatin1String("intervention_targets")).toArray();
        QCOMPARE(targets.size(), 2);
        QCOMPARE(targets[0].toObject().value(QLatin1String("target")).toString(),
                 QStringLiteral("retained"));
        QCOMPARE(targets[0].toObject().value(QLatin1String("rows")).toInt(), 2);
        QVERIFY(targets[0].toObject().value(QLatin1String("note")).isNull());
        QCOMPARE(targets[1].toObject().value(QLatin1String("rows")).toInt(), 3);
        QCOMPARE(targets[1].toObject().value(QLatin1String("intervened")).toInt(), 3);

        // No retained row: the report says so for the default target.
        const QString none = path("no-retained.kvl");
        writeRun(none, {QStringLiteral("retained")}, false);
        RunReader noneReader(none);
        const QJsonArray noneTargets =
            runReportJson(noneReader).value(QLatin1String("intervention_targets")).toArray();
        QCOMPARE(noneTargets.size(), 1);
        QCOMPARE(noneTargets[0].toObject().value(QLatin1String("rows")).toInt(), 0);
        const QString note = noneTargets[0].toObject().value(QLatin1String("note")).toString();
        QVERIFY2(note.startsWith(QLatin1String("no row qualifies for target 'retained'")),
                 qPrintable(note));
        QVERIFY2(note.contains(QLatin1String("0 of 2 C->W rows")), qPrintable(note));
        QVERIFY(runReportText(noneReader).contains(QLatin1String("no row qualifies")));
    }

    void reportHasTheDocumentedKeys()
    {
        const QString file = path("report.kvl");
        writeHandRun(file, {0, 1, 2, 3});
        RunReader reader(file);
        const QJsonObject json = runReportJson(reader);
        for (const char* key : {"accuracy", "transitions", "signatures", "overlap", "spans",
                                "leakage", "ger", "interventions", "chains"})
            QVERIFY2(json.value(QLatin1String(key)).isArray(), key);
        QCOMPARE(json.value(QLatin1String("accuracy")).toArray().size(), 8);
        const QJsonObject ov = json.value(QLatin1String("overlap")).toArray().at(0).toObject();
        QCOMPARE(ov.value(QLatin1String("both")).toInt(), 1);
        QVERIFY(runReportCsv(reader).contains(QLatin1String("# overlap\nratio,a,b,a_only")));
        QVERIFY(
            runReportText(reader).contains(QLatin1String("high_mapped_coverage_likelihood_drift")));
    }

    void reportLocatesChainBreaks()
    {
        // Multihop samples with a three-link gold chain; each C->W row answers a chain
        // that breaks somewhere (hand configurations: s0 breaks under TOVA@0.5 and
        // SnapKV@0.75, s1 under the three compressed ones, s3 under SnapKV@0.5).
        const QString gold = QStringLiteral("Hotel = Sierra = Charlie = 2025");
        const auto makeSample = [&](int s) {
            SampleRecord rec = handSample(s);
            rec.sample.suite = QStringLiteral("multihop");
            rec.sample.gold = gold;
            rec.results = handResults(s, gold);
            const QStringList broken{QStringLiteral("Hotel = Tango = 3816"),      // step 1
                                     QStringLiteral("Hotel = Sierra = Kilo = 7"), // step 2
                                     QStringLiteral("3816")};                     // bare
            for (std::size_t c = 1; c < rec.results.size(); ++c)
                if (!rec.results[c].correct)
                    rec.results[c].answer = broken.at(qsizetype((s + c) % 3));
            return rec;
        };
        const QString file = path("chains.kvl");
        writeRunOf(file, runInfo(), {0, 1, 3}, makeSample, QStringLiteral("finished"));
        RunReader reader(file);
        const QJsonArray rows = runReportJson(reader).value(QLatin1String("chains")).toArray();
        // C->W rows (FullCache correct: s0, s1, s3):
        //   s0 TOVA@0.5 (0+2)%3=2 bare, s0 SnapKV@0.75 (0+3)%3=0 step 1,
        //   s1 SnapKV@0.5 (1+1)%3=2 bare, s1 TOVA@0.5 (1+2)%3=0 step 1,
        //   s1 SnapKV@0.75 (1+3)%3=1 step 2, s3 SnapKV@0.5 (3+1)%3=1 step 2.
        QStringList got;
        for (const QJsonValue& v : rows) {
            const QJsonObject o = v.toObject();
            got << QStringLiteral("%1@%2 links %3 step %4: %5 (%6)")
                       .arg(o.value(QLatin1String("compressor")).toString())
                       .arg(o.value(QLatin1String("ratio")).toDouble())
                       .arg(o.value(QLatin1String("links")).toInt())
                       .arg(o.value(QLatin1String("step")).toInt())
                       .arg(o.value(QLatin1String("count")).toInt())
                       .arg(o.value(QLatin1String("share")).toDouble());
        }
        QCOMPARE(got, (QStringList{QStringLiteral("SnapKV@0.5 links 3 step 2: 1 (1)"),
                                   QStringLiteral("SnapKV@0.75 links 3 step 1: 1 (0.5)"),
                                   QStringLiteral("SnapKV@0.75 links 3 step 2: 1 (0.5)"),
                                   QStringLiteral("TOVA@0.5 links 3 step 1: 1 (1)")}));
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "tst_runstore.moc"
