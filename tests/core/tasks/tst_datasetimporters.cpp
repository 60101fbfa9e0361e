// Dataset importers (tasks/datasetimporters.h) on hand-made files of each format in
// tests/data/tasks/import: the context each builds, every span's text, the JSONL round
// trip, span positions under the bundled model's tokenizer, the scorer each suite
// reaches, and one bad record per format -> an error naming the file, the record and
// the field.
#include "common/error.h"
#include "tasks/datasetimporters.h"
#include "tasks/samplejsonl.h"
#include "tasks/samplescorer.h"
#include "tasks/spantokens.h"
#include "tokenizer/tokenizer.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(KVLENS_TEST_DATA "/tasks/import/") + name;
}

// The texts of the spans of one kind, in order.
QStringList spanTexts(const Sample& s, SpanKind kind)
{
    QStringList texts;
    for (const Span& span : s.spans)
        if (span.kind == kind)
            texts << s.spanText(span);
    return texts;
}

QStringList spanLabels(const Sample& s, SpanKind kind)
{
    QStringList labels;
    for (const Span& span : s.spans)
        if (span.kind == kind)
            labels << span.label;
    return labels;
}

QString errorOf(const QString& format, const QString& path, const ImportOptions& options = {})
{
    try {
        importDataset(format, path, options);
    } catch (const Error& e) {
        return e.message();
    }
    return {};
}

} // namespace

class TestDatasetImporters : public QObject
{
    Q_OBJECT

    std::unique_ptr<Tokenizer> m_tokenizer;
    QTemporaryDir m_dir;

    // Every importer's output passes the schema loader unchanged, and every span covers
    // tokens of the bundled tokenizer whose characters reach exactly around it.
    void checkRoundTripAndTokens(const std::vector<Sample>& samples)
    {
        const QByteArray jsonl = samplesToJsonl(samples);
        const std::vector<SampleLine> lines = parseSampleLines(jsonl, QStringLiteral("mem"));
        QCOMPARE(lines.size(), samples.size());
        for (size_t i = 0; i < samples.size(); ++i)
            QVERIFY(lines[i].sample == samples[i]);

        for (const Sample& s : samples) {
            const SpanTokens mapped = mapSpansToTokens(s, *m_tokenizer);
            for (size_t i = 0; i < s.spans.size(); ++i) {
                const Span& span = s.spans[i];
                const TokenRange range = mapped.spans[i];
                const std::vector<TokenSpan>& tokens =
                    span.field == SpanField::Context ? mapped.context : mapped.question;
                QVERIFY2(range.size() > 0, qPrintable(s.id + QStringLiteral(": empty span")));
                QVERIFY(tokens[size_t(range.begin)].begin < span.end);
                QVERIFY(tokens[size_t(range.begin)].begin <= span.begin);
                QVERIFY(tokens[size_t(range.end - 1)].end >= span.end);
                QVERIFY(tokens[size_t(range.end - 1)].end > span.begin);
                if (range.begin > 0)
                    QVERIFY(tokens[size_t(range.begin - 1)].end <= span.begin);
                if (range.end < int(tokens.size()))
                    QVERIFY(tokens[size_t(range.end)].begin >= span.end);
            }
        }
    }

  private slots:
    void initTestCase()
    {
        m_tokenizer = loadTokenizer(
            QStringLiteral(KVLENS_SOURCE_DIR "/resources/models/kvlens-tiny/tokenizer.json"));
        QVERIFY(m_dir.isValid());
    }

    void longBench()
    {
        const auto samples = importDataset(QStringLiteral("longbench"), fixture("longbench.jsonl"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("lb-001"));
        QCOMPARE(a.suite, QStringLiteral("longbench"));
        QCOMPARE(a.variant, QStringLiteral("hotpotqa"));
        QCOMPARE(a.question,
                 QStringLiteral("\nQuestion: Which town hosts the Harwick observatory?\nAnswer:"));
        QCOMPARE(a.answer, QStringLiteral("Lindau"));
        // Both whole-word "Lindau"s, not the one inside "Lindauer".
        QCOMPARE(spanTexts(a, SpanKind::Evidence),
                 QStringList({QStringLiteral("Lindau"), QStringLiteral("Lindau")}));
        QCOMPARE(a.spans[0].begin, int(a.context.indexOf(QStringLiteral("in Lindau."))) + 3);
        QCOMPARE(a.spans[1].begin, int(a.context.indexOf(QStringLiteral("of Lindau,"))) + 3);
        QCOMPARE(a.spans[0].label, QStringLiteral("answer-match"));
        QCOMPARE(a.meta.value(QStringLiteral("index")).toInt(), 0);
        // Optional record fields ride along in meta; a null one is left out.
        QCOMPARE(a.meta.value(QStringLiteral("length")).toInt(), 30);
        QCOMPARE(a.meta.value(QStringLiteral("language")).toString(), QStringLiteral("en"));
        QVERIFY(!a.meta.contains(QStringLiteral("all_classes")));

        const Sample& b = samples[1];
        QCOMPARE(b.question, QStringLiteral("\nAnswer:")); // summarization: no input
        QVERIFY(b.spans.empty());
        QCOMPARE(b.meta.value(QStringLiteral("answers")).toArray().size(), 2);
        QCOMPARE(b.meta.value(QStringLiteral("index")).toInt(), 1);
        checkRoundTripAndTokens(samples);
        // No suite rule: exact match on the first answer.
        QCOMPARE(scoreSample(a.suite, a, QStringLiteral(" lindau.")).value("score").toDouble(),
                 1.0);
    }

    void longBenchV2()
    {
        const auto samples =
            importDataset(QStringLiteral("longbench-v2"), fixture("longbench_v2.json"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("v2-001"));
        QCOMPARE(a.answer, QStringLiteral("B"));
        QCOMPARE(a.meta.value(QStringLiteral("difficulty")).toString(), QStringLiteral("easy"));
        QCOMPARE(a.question, QStringLiteral("\nQuestion: What colour is the roof of the mill?\n"
                                            "Choices:\n(A) Red\n(B) Green\n(C) Blue\n(D) Grey\n"
                                            "Answer:"));
        QVERIFY(a.spans.empty());
        QCOMPARE(a.variant, QStringLiteral("Single-Document QA"));
        QCOMPARE(scoreSample(a.suite, a, QStringLiteral("B")).value("score").toDouble(), 1.0);
        QCOMPARE(scoreSample(a.suite, a, QStringLiteral("A")).value("score").toDouble(), 0.0);
        checkRoundTripAndTokens(samples);
    }

    void rulerNiah()
    {
        const auto samples =
            importDataset(QStringLiteral("ruler"), fixture("niah_multikey_1/validation.jsonl"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("niah_multikey_1_000000")); // KVDiagnosis' naming
        QCOMPARE(a.suite, QStringLiteral("retrieval"));
        QCOMPARE(a.variant, QStringLiteral("multikey"));
        QVERIFY(a.context.endsWith(QStringLiteral("Here we go.")));
        QCOMPARE(a.question,
                 QStringLiteral("\nWhat is the special magic number for quiet-otter mentioned in "
                                "the provided text? The special magic number for quiet-otter "
                                "mentioned in the provided text is"));
        QCOMPARE(spanTexts(a, SpanKind::Evidence),
                 QStringList{QStringLiteral(
                     "One of the special magic numbers for quiet-otter is: 4829103.")});
        QCOMPARE(spanLabels(a, SpanKind::Evidence), QStringList{QStringLiteral("quiet-otter")});
        QCOMPARE(spanTexts(a, SpanKind::Distractor),
                 QStringList{QStringLiteral(
                     "One of the special magic numbers for brave-lion is: 7712345.")});
        QCOMPARE(a.answer, QStringLiteral("4829103"));
        // The retrieval code rule: the number stated, words around it do not count.
        QCOMPARE(
            scoreSample(a.suite, a, QStringLiteral("It is 4829103.")).value("score").toDouble(),
            1.0);
        QCOMPARE(scoreSample(a.suite, a, QStringLiteral("7712345")).value("score").toDouble(), 0.0);

        const Sample& b = samples[1];
        QCOMPARE(b.variant, QStringLiteral("multivalue"));
        QCOMPARE(b.answer, QStringLiteral("1203944, 5550123"));
        QCOMPARE(spanTexts(b, SpanKind::Evidence).size(), 2);
        QVERIFY(spanTexts(b, SpanKind::Distractor).isEmpty());
        // multivalue: any order.
        QCOMPARE(scoreSample(b.suite, b, QStringLiteral("5550123 and 1203944"))
                     .value("score")
                     .toDouble(),
                 1.0);
        checkRoundTripAndTokens(samples);

        const auto query =
            importDataset(QStringLiteral("ruler"), fixture("ruler_multiquery.jsonl"));
        QCOMPARE(query.size(), size_t(1));
        QCOMPARE(query[0].id, QStringLiteral("ruler_000002")); // folder is not a task name
        QCOMPARE(query[0].variant, QStringLiteral("multiquery"));
        QCOMPARE(query[0].meta.value(QStringLiteral("keys")).toArray(),
                 QJsonArray({QStringLiteral("red-fox"), QStringLiteral("blue-owl")}));
        QVERIFY(query[0].question.startsWith(
            QStringLiteral("\nWhat are all the special magic numbers for red-fox, and blue-owl")));
        checkRoundTripAndTokens(query);
    }

    void hotpotQa()
    {
        const auto samples = importDataset(QStringLiteral("hotpotqa"), fixture("hotpotqa.json"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("5a8b57f25542995d1e6f1371"));
        QCOMPARE(a.variant, QStringLiteral("bridge"));
        QCOMPARE(a.answer, QStringLiteral("1871"));
        // Title, newline, the sentences as given; a blank line between paragraphs.
        QCOMPARE(a.context,
                 QStringLiteral("Lake Ormen\nLake Ormen is a lake in the north. It freezes in "
                                "winter.\n\nVell Tower\nThe Vell Tower is a clock tower in Brenn. "
                                "It was designed by Anna Roos. It was finished in 1910.\n\nAnna "
                                "Roos\nAnna Roos (born 1871) was an architect. She worked in "
                                "Brenn.\n\nBrenn Station\nBrenn Station opened in 1899. It has "
                                "two platforms."));
        QCOMPARE(spanTexts(a, SpanKind::Evidence),
                 QStringList({QStringLiteral("It was designed by Anna Roos."),
                              QStringLiteral("Anna Roos (born 1871) was an architect.")}));
        QCOMPARE(spanLabels(a, SpanKind::Evidence),
                 QStringList({QStringLiteral("Vell Tower"), QStringLiteral("Anna Roos")}));
        QCOMPARE(spanTexts(a, SpanKind::Distractor),
                 QStringList({QStringLiteral("Lake Ormen\nLake Ormen is a lake in the north. It "
                                             "freezes in winter."),
                              QStringLiteral("Brenn Station\nBrenn Station opened in 1899. It has "
                                             "two platforms.")}));
        const Sample& b = samples[1];
        QCOMPARE(spanTexts(b, SpanKind::Evidence),
                 QStringList({QStringLiteral("It was finished in 1910."),
                              QStringLiteral("Brenn Station opened in 1899.")}));
        QCOMPARE(spanLabels(b, SpanKind::Distractor), QStringList{QStringLiteral("Lake Ormen")});
        checkRoundTripAndTokens(samples);
    }

    void qasper()
    {
        const auto samples = importDataset(QStringLiteral("qasper"), fixture("qasper.json"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("q-tweets"));
        QCOMPARE(
            a.context,
            QStringLiteral("Counting Tweets About Trains\n\nWe collect complaints about "
                           "trains from social media.\n\nIntroduction\n\nComplaints are short "
                           "and noisy.\n\nData\n\nWe collected 19,300 tweets with a lexicon of "
                           "transport words.\n\nAnnotators labelled 1,000 of them.\n\nThe data "
                           "is released.\n\nTable 1: Counts of tweets per label."));
        QCOMPARE(a.answer, QStringLiteral("19,300 tweets"));
        QCOMPARE(a.variant, QStringLiteral("extractive"));
        QCOMPARE(spanTexts(a, SpanKind::Evidence),
                 QStringList({QStringLiteral("We collected 19,300 tweets with a lexicon of "
                                             "transport words."),
                              QStringLiteral("Table 1: Counts of tweets per label.")}));
        QCOMPARE(
            a.meta.value(QStringLiteral("answers")).toArray(),
            QJsonArray({QStringLiteral("19,300 tweets"), QStringLiteral("about 19 thousand")}));
        const Sample& b = samples[1];
        QCOMPARE(b.answer, QStringLiteral("Yes"));
        QCOMPARE(b.variant, QStringLiteral("boolean"));
        QCOMPARE(spanTexts(b, SpanKind::Evidence),
                 QStringList{QStringLiteral("The data is released.")});
        QCOMPARE(b.meta.value(QStringLiteral("paper_id")).toString(), QStringLiteral("1907.01234"));
        checkRoundTripAndTokens(samples);
    }

    void kvDiagnosis()
    {
        std::vector<Sample> sources =
            importDataset(QStringLiteral("ruler"), fixture("niah_multikey_1/validation.jsonl"));
        for (Sample& s : importDataset(QStringLiteral("longbench"), fixture("longbench.jsonl")))
            sources.push_back(std::move(s));
        const QString sourcePath = m_dir.filePath(QStringLiteral("sources.jsonl"));
        writeSamples(sourcePath, sources);
        ImportOptions options;
        options.sourcePath = sourcePath;

        const auto samples =
            importDataset(QStringLiteral("kvdiagnosis"), fixture("kvdiagnosis.jsonl"), options);
        QCOMPARE(samples.size(), size_t(2)); // one per source sample, in row order
        QCOMPARE(samples[0].id, QStringLiteral("niah_multikey_1_000000"));
        QVERIFY(samples[0].spans == sources[0].spans);
        const QJsonArray rows = samples[0].meta.value(QStringLiteral("kvdiagnosis")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject().value("method_name").toString(), QStringLiteral("SnapKVPress"));
        QCOMPARE(rows[1].toObject().value("method_name").toString(),
                 QStringLiteral("StreamingLLMPress"));
        QCOMPARE(rows[0].toObject().value("failure_signature").toString(),
                 QStringLiteral("low_mapped_coverage"));
        QVERIFY(rows[0].toObject().value("EAR").isNull()); // nulls stay null
        // hotpotqa_000000: LongBench's hotpotqa record at index 0, joined by task + index.
        QCOMPARE(samples[1].id, QStringLiteral("lb-001"));
        QCOMPARE(samples[1].meta.value(QStringLiteral("kvdiagnosis")).toArray().size(), 1);
        checkRoundTripAndTokens(samples);

        // Without the source the rows cannot become samples.
        QVERIFY(errorOf(QStringLiteral("kvdiagnosis"), fixture("kvdiagnosis.jsonl"))
                    .contains(QStringLiteral("--source")));
        // A row naming a sample the source does not have.
        const QString orphan = m_dir.filePath(QStringLiteral("orphan.jsonl"));
        QFile f(orphan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"sample_id": "niah_single_1_000009", "dataset": "ruler8k", )"
                R"("method_name": "TOVAPress", "retained_budget": 0.5, "reference_answer": ["1"]})"
                "\n");
        f.close();
        const QString message = errorOf(QStringLiteral("kvdiagnosis"), orphan, options);
        QVERIFY2(message.contains(QStringLiteral("orphan.jsonl: line 1 (id "
                                                 "'niah_single_1_000009'): field 'sample_id'")),
                 qPrintable(message));
    }

    void ifEval()
    {
        const auto samples = importDataset(QStringLiteral("ifeval"), fixture("ifeval.jsonl"));
        QCOMPARE(samples.size(), size_t(2));
        const Sample& a = samples[0];
        QCOMPARE(a.id, QStringLiteral("ifeval-1069"));
        QCOMPARE(a.variant, QStringLiteral("system"));
        QVERIFY(a.context.startsWith(QStringLiteral("The email must include")));
        QCOMPARE(a.question, QStringLiteral("\nWrite a long email template that invites a group "
                                            "of participants to a meeting."));
        QCOMPARE(a.answer, QString());
        QCOMPARE(spanTexts(a, SpanKind::Instruction),
                 QStringList({QStringLiteral("The email must include the keywords 'correlated' "
                                             "and 'experiencing'."),
                              QStringLiteral("Write a response of at least 500 words."),
                              QStringLiteral("Do not use any commas.")}));
        QCOMPARE(spanLabels(a, SpanKind::Instruction),
                 QStringList({QStringLiteral("keywords:existence"),
                              QStringLiteral("length_constraints:number_words"),
                              QStringLiteral("punctuation:no_comma")}));
        for (const Span& s : a.spans)
            QCOMPARE(s.role, InstructionRole::FormatRule);
        QVERIFY(a.meta.value(QStringLiteral("unlocated")).toArray().isEmpty());

        const Sample& b = samples[1];
        QCOMPARE(b.variant, QStringLiteral("prompt"));
        QCOMPARE(b.question, QStringLiteral("\n"));
        QCOMPARE(spanTexts(b, SpanKind::Instruction),
                 QStringList({QStringLiteral("The response should be in all capital letters."),
                              QStringLiteral("End it with the phrase \"Rock on\".")}));
        QCOMPARE(b.meta.value(QStringLiteral("unlocated")).toArray(),
                 QJsonArray{QStringLiteral("detectable_format:number_bullet_lists")});
        // english_capital is the one IFEval check KVLens has (`uppercase`).
        const QJsonObject upper =
            scoreSample(QStringLiteral("instructions"), b, QStringLiteral("ROCK ON"));
        QCOMPARE(upper.value(QStringLiteral("uppercase")).toInt(), 1);
        QCOMPARE(scoreSample(QStringLiteral("instructions"), b, QStringLiteral("Rock on"))
                     .value(QStringLiteral("uppercase"))
                     .toInt(),
                 0);
        checkRoundTripAndTokens(samples);
    }

    // One bad record per format: a non-zero exit in the CLI, here the error text, which
    // names the file, the record (line or record number, and id) and the field.
    void badRecords_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("longbench missing answers")
            << "longbench"
            << "longbench_bad.jsonl"
            << "longbench_bad.jsonl: line 2 (id 'lb-bad'): field 'answers': missing";
        QTest::newRow("longbench-v2 answer not a letter")
            << "longbench-v2"
            << "longbench_v2_bad.json"
            << "longbench_v2_bad.json: record 2 (id 'v2-002'): field 'answer': expected one of A, "
               "B, C, D, got 'E'";
        QTest::newRow("ruler output in no needle")
            << "ruler"
            << "ruler_bad.jsonl"
            << "ruler_bad.jsonl: line 2 (id 'ruler_000001'): field 'outputs[0]': value 'Paris' is "
               "in no needle sentence";
        QTest::newRow("hotpotqa sentence out of range")
            << "hotpotqa"
            << "hotpotqa_bad.json"
            << "hotpotqa_bad.json: record 2 (id '5ab3b0bf5542992ade7c6e39'): field "
               "'supporting_facts[1]': sentence 5 of 'Vell Tower' does not exist (it has 3)";
        QTest::newRow("qasper evidence not in the paper")
            << "qasper"
            << "qasper_bad.json"
            << "qasper_bad.json: paper '1907.01234' (id '1907.01234/q-released'): field "
               "'qas[1].answers[0].answer.evidence[0]': evidence 'The code is on GitHub.' is not "
               "in the paper's text";
        QTest::newRow("kvdiagnosis missing method_name")
            << "kvdiagnosis"
            << "kvdiagnosis_bad.jsonl"
            << "kvdiagnosis_bad.jsonl: line 2 (id 'niah_multikey_1_000001'): field 'method_name': "
               "missing";
        QTest::newRow("ifeval missing instruction_id_list")
            << "ifeval"
            << "ifeval_bad.jsonl"
            << "ifeval_bad.jsonl: line 2 (id '2'): field 'instruction_id_list': missing";
    }

    void badRecords()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QString, expected);
        ImportOptions options;
        if (format == QLatin1String("kvdiagnosis")) {
            const QString sourcePath = m_dir.filePath(QStringLiteral("bad-sources.jsonl"));
            writeSamples(sourcePath, importDataset(QStringLiteral("ruler"),
                                                   fixture("niah_multikey_1/validation.jsonl")));
            options.sourcePath = sourcePath;
        }
        const QString message = errorOf(format, fixture(file), options);
        QVERIFY2(message.contains(fixture(file)), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void unknownFormatNamesTheKnownOnes()
    {
        const QString message = errorOf(QStringLiteral("squad"), fixture("longbench.jsonl"));
        QVERIFY2(message.contains(QStringLiteral("unknown dataset format 'squad'")),
                 qPrintable(message));
        for (const DatasetFormat& f : datasetFormats())
            QVERIFY(message.contains(f.name));
        QCOMPARE(datasetFormats().size(), size_t(7));
    }

    void emptyOrMissingFileIsAnError()
    {
        const QString empty = m_dir.filePath(QStringLiteral("empty.jsonl"));
        QFile f(empty);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\n\n");
        f.close();
        QVERIFY2(errorOf(QStringLiteral("ruler"), empty)
                     .contains(QStringLiteral("empty.jsonl: no ruler records in the file")),
                 qPrintable(errorOf(QStringLiteral("ruler"), empty)));
        const QString missing = m_dir.filePath(QStringLiteral("missing.json"));
        QVERIFY(errorOf(QStringLiteral("hotpotqa"), missing).contains(missing));
    }

    void malformedJsonNamesTheLine()
    {
        const QString path = m_dir.filePath(QStringLiteral("broken.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"_id\": \"a\", \"input\": \"q\", \"context\": \"c\", \"answers\": [\"c\"]}\n"
                "{\"_id\": \"b\", \"input\": \n");
        f.close();
        const QString message = errorOf(QStringLiteral("longbench"), path);
        QVERIFY2(message.contains(QStringLiteral("broken.jsonl: line 2: malformed JSON")),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestDatasetImporters)
#include "tst_datasetimporters.moc"
