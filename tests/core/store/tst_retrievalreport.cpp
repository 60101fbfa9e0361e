// The report's offloading tables (store/retrievalreport): a hand-written run whose rows
// carry extra_json.retrieval as offloaded decoding writes it (core/tasks/SCHEMA.md), and
// every figure worked out by hand below.
//
//   sample  suite      FullCache     shadowkv@0.5 (low_rank_mean, chunk 8)         yakv@0.5
//   (quantized_keys, chunk 1) t0      text2json  score 0.5     score 0.25 rec 0.2 att 0.5 fetch
//   1000 lm 64    score 1.0 rec 0.8 att 0.25 fetch 400
//                                    budget 20, fields city 0.1, pet 0.3           budget 20,
//                                    fields city 0.9
//   t1      text2json  score 1.0     score 0.75 rec 0.4 att 0.5 fetch 3000 lm 128   score 0.5
//   rec 1.0 att 0.75 fetch 600
//                                    budget 30, fields city 0.5                    budget 30,
//                                    fields city 0.7, pet 1.0
//   r0      retrieval  correct       correct   rec 0.9 att 0.5 fetch 2000 lm 96     (none)
//   r1      retrieval  wrong         wrong     rec null (no evidence) att 0.5 ...  (none)
// plus a SnapKV@0.5 configuration whose rows carry no retrieval object (left out).
#include "storefixtures.h"

#include "store/retrievalreport.h"
#include "store/runreader.h"
#include "store/runreport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

using namespace kvl;

namespace {

QJsonObject retrieval(const char* landmark, int chunk, int budget, QJsonValue recall,
                      double attended, double fetched, double landmarkBytes, QJsonArray fields = {})
{
    QJsonObject o{{"landmark", landmark},
                  {"chunk", chunk},
                  {"budget_tokens", budget},
                  {"steps", 5},
                  {"mean_evidence_recall", recall},
                  {"attended_share", attended},
                  {"fetched_bytes_per_step", fetched},
                  {"landmark_bytes", landmarkBytes}};
    if (!fields.isEmpty())
        o.insert(QStringLiteral("field_recall"), fields);
    return o;
}

QJsonObject field(const char* name, const char* f, int step, double recall)
{
    return {{"name", name}, {"field", f}, {"step", step}, {"recall", recall}};
}

ResultRecord row(const ConfigRecord& c, bool correct, std::optional<double> score,
                 const QJsonObject& retrievalObject = {})
{
    ResultRecord r;
    r.configKey = c.key;
    r.correct = correct;
    r.score = score;
    if (!retrievalObject.isEmpty())
        r.extra.insert(QStringLiteral("retrieval"), retrievalObject);
    return r;
}

SampleRecord sample(const QString& key, const QString& suite)
{
    SampleRecord s;
    s.sample.key = key;
    s.sample.suite = suite;
    s.sample.sourceId = key;
    s.sample.contextLen = 40;
    s.sample.questionLen = 4;
    s.sample.gold = QStringLiteral("gold");
    return s;
}

void writeFixture(const QString& path)
{
    const ConfigRecord full = test::config(QStringLiteral("FullCache"), 0.0);
    const ConfigRecord shadow = test::config(QStringLiteral("shadowkv"), 0.5);
    const ConfigRecord yakv = test::config(QStringLiteral("yakv"), 0.5);
    const ConfigRecord snap = test::config(QStringLiteral("SnapKV"), 0.5);
    RunWriter w(path);
    w.setRunInfo(test::runInfo());
    for (const ConfigRecord& c : {full, shadow, yakv, snap})
        w.addConfig(c);

    SampleRecord t0 = sample(QStringLiteral("t0"), QStringLiteral("text2json"));
    t0.results = {
        row(full, false, 0.5),
        row(shadow, false, 0.25,
            retrieval("low_rank_mean", 8, 20, 0.2, 0.5, 1000, 64,
                      {field("Ann", "city", 2, 0.1), field("Ann", "pet", 4, 0.3)})),
        row(yakv, true, 1.0,
            retrieval("quantized_keys", 1, 20, 0.8, 0.25, 400, 32, {field("Ann", "city", 2, 0.9)})),
        row(snap, false, 0.0)};
    SampleRecord t1 = sample(QStringLiteral("t1"), QStringLiteral("text2json"));
    t1.results = {
        row(full, true, 1.0),
        row(shadow, false, 0.75,
            retrieval("low_rank_mean", 8, 30, 0.4, 0.5, 3000, 128, {field("Bo", "city", 3, 0.5)})),
        row(yakv, false, 0.5,
            retrieval("quantized_keys", 1, 30, 1.0, 0.75, 600, 48,
                      {field("Bo", "city", 3, 0.7), field("Bo", "pet", 6, 1.0)})),
        row(snap, true, 1.0)};
    // Retrieval rows carry no score column: the task score is correctness as 0/1.
    SampleRecord r0 = sample(QStringLiteral("r0"), QStringLiteral("retrieval"));
    r0.results = {
        row(full, true, std::nullopt),
        row(shadow, true, std::nullopt, retrieval("low_rank_mean", 8, 20, 0.9, 0.5, 2000, 96)),
        row(snap, true, std::nullopt)};
    SampleRecord r1 = sample(QStringLiteral("r1"), QStringLiteral("retrieval"));
    r1.results = {row(full, false, std::nullopt),
                  row(shadow, false, std::nullopt,
                      retrieval("low_rank_mean", 8, 30, QJsonValue(), 0.5, 2000, 96)),
                  row(snap, false, std::nullopt)};
    for (const SampleRecord& s : {t0, t1, r0, r1})
        w.writeSample(s);
    w.setStatus(QStringLiteral("finished"));
}

const ReportTable& tableNamed(const std::vector<ReportTable>& tables, const QString& name)
{
    for (const ReportTable& t : tables)
        if (t.name == name)
            return t;
    qFatal("no table %s", qPrintable(name));
    std::abort();
}

// The row of a table as {column: value}, for readable comparisons.
QJsonObject rowObject(const ReportTable& t, std::size_t i)
{
    QJsonObject o;
    for (qsizetype c = 0; c < t.columns.size(); ++c)
        o.insert(t.columns[c], t.rows[i][c]);
    return o;
}

void compareNear(const QJsonObject& got, const QJsonObject& want)
{
    QCOMPARE(got.keys(), want.keys());
    for (auto it = want.begin(); it != want.end(); ++it) {
        const QJsonValue g = got.value(it.key());
        if (it.value().isDouble() && g.isDouble())
            QVERIFY2(std::abs(g.toDouble() - it.value().toDouble()) < 1e-12,
                     qPrintable(it.key() + QStringLiteral(": ") + QString::number(g.toDouble())));
        else
            QVERIFY2(g == it.value(), qPrintable(it.key()));
    }
}

} // namespace

class TestRetrievalReport : public QObject
{
    Q_OBJECT

  private slots:
    void cellsPerSuiteCompressorRatio()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.kvl"));
        writeFixture(path);
        RunReader reader(path);
        const std::vector<ReportTable> tables = retrievalReportTables(reader);
        const ReportTable& t = tableNamed(tables, QStringLiteral("retrieval"));
        QCOMPARE(t.rows.size(), std::size_t(3)); // SnapKV and FullCache rows are no cells
        compareNear(rowObject(t, 0),
                    {{"suite", "retrieval"},
                     {"compressor", "shadowkv"},
                     {"ratio", 0.5},
                     {"landmark", "low_rank_mean"},
                     {"chunk", 8},
                     {"budget_tokens", 25},
                     {"n", 2},
                     {"score", 0.5},
                     {"fullcache_score", 0.5},
                     {"evidence_recall", 0.9}, // r1 has no evidence: not counted as 0
                     {"attended_share", 0.5},
                     {"fetched_bytes_per_step", 2000},
                     {"landmark_bytes", 96}});
        compareNear(rowObject(t, 1), {{"suite", "text2json"},
                                      {"compressor", "shadowkv"},
                                      {"ratio", 0.5},
                                      {"landmark", "low_rank_mean"},
                                      {"chunk", 8},
                                      {"budget_tokens", 25},
                                      {"n", 2},
                                      {"score", 0.5},
                                      {"fullcache_score", 0.75},
                                      {"evidence_recall", 0.3},
                                      {"attended_share", 0.5},
                                      {"fetched_bytes_per_step", 2000},
                                      {"landmark_bytes", 96}});
        compareNear(rowObject(t, 2), {{"suite", "text2json"},
                                      {"compressor", "yakv"},
                                      {"ratio", 0.5},
                                      {"landmark", "quantized_keys"},
                                      {"chunk", 1},
                                      {"budget_tokens", 25},
                                      {"n", 2},
                                      {"score", 0.75},
                                      {"fullcache_score", 0.75},
                                      {"evidence_recall", 0.9},
                                      {"attended_share", 0.5},
                                      {"fetched_bytes_per_step", 500},
                                      {"landmark_bytes", 40}});
    }

    void fieldRecallPerAnswerField()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.kvl"));
        writeFixture(path);
        RunReader reader(path);
        const std::vector<ReportTable> tables = retrievalReportTables(reader);
        const ReportTable& t = tableNamed(tables, QStringLiteral("retrieval_fields"));
        QCOMPARE(t.rows.size(), std::size_t(4));
        const QList<QJsonObject> want = {{{"suite", "text2json"},
                                          {"compressor", "shadowkv"},
                                          {"ratio", 0.5},
                                          {"field", "city"},
                                          {"n", 2},
                                          {"recall", 0.3}},
                                         {{"suite", "text2json"},
                                          {"compressor", "shadowkv"},
                                          {"ratio", 0.5},
                                          {"field", "pet"},
                                          {"n", 1},
                                          {"recall", 0.3}},
                                         {{"suite", "text2json"},
                                          {"compressor", "yakv"},
                                          {"ratio", 0.5},
                                          {"field", "city"},
                                          {"n", 2},
                                          {"recall", 0.8}},
                                         {{"suite", "text2json"},
                                          {"compressor", "yakv"},
                                          {"ratio", 0.5},
                                          {"field", "pet"},
                                          {"n", 1},
                                          {"recall", 1.0}}};
        for (qsizetype i = 0; i < want.size(); ++i)
            compareNear(rowObject(t, std::size_t(i)), want[i]);
    }

    // `kvlens-cli report` prints what buildRunReport builds: the tables are there in
    // every format, JSON keyed by column.
    void runReportCarriesTheTables()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.kvl"));
        writeFixture(path);
        RunReader reader(path);
        const QJsonObject json = runReportJson(reader);
        const QJsonArray cells = json.value(QStringLiteral("retrieval")).toArray();
        QCOMPARE(cells.size(), 3);
        QCOMPARE(cells[2].toObject().value(QStringLiteral("compressor")).toString(),
                 QStringLiteral("yakv"));
        QCOMPARE(cells[2].toObject().value(QStringLiteral("fetched_bytes_per_step")).toDouble(),
                 500.0);
        QCOMPARE(json.value(QStringLiteral("retrieval_fields")).toArray().size(), 4);
        const QString text = runReportText(reader);
        QVERIFY(text.contains(QStringLiteral("Offloaded decoding: score, evidence recall")));
        QVERIFY(text.contains(QStringLiteral("quantized_keys")));
        QVERIFY(runReportCsv(reader).contains(QStringLiteral("# retrieval_fields\n")));
    }

    void runWithoutOffloadingHasEmptyTables()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plain.kvl"));
        test::writeRunOf(
            path, test::runInfo(), {0, 1},
            [](int s) {
                SampleRecord rec =
                    sample(QStringLiteral("s%1").arg(s), QStringLiteral("retrieval"));
                rec.results = test::handResults(s, QStringLiteral("gold"));
                return rec;
            },
            QStringLiteral("finished"));
        RunReader reader(path);
        const std::vector<ReportTable> tables = retrievalReportTables(reader);
        QCOMPARE(tables.size(), std::size_t(2));
        QVERIFY(tables[0].rows.empty());
        QVERIFY(tables[1].rows.empty());
        // Printed with "(no rows)" on request; by default left out and named at the end.
        QVERIFY(runReportText(reader, EmptyTables::Print).contains(QStringLiteral("(no rows)")));
        QVERIFY(runReportCsv(reader, EmptyTables::Print).contains(QStringLiteral("# retrieval\n")));
        const QString text = runReportText(reader);
        QVERIFY(!text.contains(QStringLiteral("(no rows)")));
        QVERIFY(!runReportCsv(reader).contains(QStringLiteral("# retrieval\n")));
        const QString last = text.trimmed().split(QLatin1Char('\n')).last();
        QVERIFY2(last.startsWith(QStringLiteral("Tables without rows")) &&
                     last.contains(QStringLiteral("retrieval, retrieval_fields")),
                 qPrintable(last));
        // JSON keeps every key.
        QVERIFY(runReportJson(reader).value(QStringLiteral("retrieval")).isArray());
    }
};

QTEST_GUILESS_MAIN(TestRetrievalReport)
#include "tst_retrievalreport.moc"
