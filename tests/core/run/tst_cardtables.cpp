// `kvlens-cli eval --markdown` and `heads --markdown`: the model card's tables.
#include "run/cardtables.h"

#include <QtTest>

using namespace kvl;

class TestCardTables : public QObject
{
    Q_OBJECT

private slots:
    void rowsPerSuiteColumnsPerBucket()
    {
        SuiteEvaluation retrieval;
        retrieval.suite = QStringLiteral("retrieval");
        retrieval.n = 30;
        retrieval.score = 0.5;
        retrieval.summary = QJsonObject{{"score", 0.5}, {"n", 30}, {"percent", 50.0}};
        retrieval.buckets = {{257, 512, 20, 0.45}, {129, 256, 10, 0.6}};
        retrieval.variants = {{"single", 16, 0.75}, {"multivalue", 14, 0.2}};
        SuiteEvaluation instructions;
        instructions.suite = QStringLiteral("instructions");
        instructions.n = 8;
        instructions.score = 0.8;
        instructions.skipped = 2;
        instructions.summary = QJsonObject{{"score", 0.8}, {"prefix", 1.0}, {"suffix", 0.4}};
        instructions.buckets = {{1, 128, 8, 0.8}};
        instructions.variants = {{"attack_standard", 8, 0.8}}; // one variant: no list

        const QStringList lines =
            evaluationTableMarkdown({retrieval, instructions}).split(QLatin1Char('\n'));
        const QStringList expected{
            "| suite | 1-128 | 129-256 | 257-512 | all |",
            "|---|---|---|---|---|",
            "| retrieval | — | 0.60 (10) | 0.45 (20) | 0.50 (30) |",
            "| instructions | 0.80 (8) | — | — | 0.80 (8) |",
            "",
            "- retrieval: single 0.75 (16), multivalue 0.20 (14)",
            "- instructions: prefix 1.00, suffix 0.40, 2 samples too long for the model",
            ""};
        QCOMPARE(lines, expected);
    }

    void noSummaryFieldsNoList()
    {
        SuiteEvaluation e;
        e.suite = QStringLiteral("multihop");
        e.n = 4;
        e.score = 0.25;
        e.summary = QJsonObject{{"score", 0.25}, {"n", 4}};
        e.buckets = {{64, 128, 4, 0.25}};
        QCOMPARE(evaluationTableMarkdown({e}),
                 QStringLiteral("| suite | 64-128 | all |\n|---|---|---|\n"
                                "| multihop | 0.25 (4) | 0.25 (4) |\n"));
    }

    void headLifts()
    {
        QCOMPARE(headLiftTableMarkdown({{0.05, 0.1}, {0.4, 0.2}}, 0.1, 50),
                 QStringLiteral("| layer | kv-head 0 | kv-head 1 |\n|---|---|---|\n"
                                "| 0 | 0.50 (0.05) | 1.00 (0.10) |\n"
                                "| 1 | 4.00 (0.40) | 2.00 (0.20) |\n\n"
                                "Cells: lift over the uniform share (share of the question's "
                                "context attention on evidence); uniform share |E|/T = 0.100, "
                                "50 samples.\n"));
    }
};

QTEST_GUILESS_MAIN(TestCardTables)
#include "tst_cardtables.moc"
