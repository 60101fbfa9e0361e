// Reading external per-row metrics (CSV, JSONL) with KVDiagnosis column names; nulls
// stay null; malformed input names the file, the row and the column. Also the
// failure-set overlap counts.
#include "common/csvtable.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "diagnose/diagnosticfile.h"
#include "diagnose/failureoverlap.h"
#include "diagnose/signature.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TestDiagnosticFile : public QObject
{
    Q_OBJECT
  private slots:
    void csvWithNulls()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rows.csv"));
        writeFileAtomically(
            path, "id,compressor,ECov_slot,delta_NLL,EAR,TopK,coverage_type,note\n"
                  "1,SnapKV,0.3,,null,NaN,measured_token_coverage,\"a, quoted\"\n"
                  "2,ThinK,,2.5,,,structural_position_addressability,x\n"
                  "3,TOVA,0.95,0.02,0.8,0.93,projected_token_coverage,\"say \"\"hi\"\"\"\n"
                  "4,KV,0.95,0.02,0.8,0.93,,\n");
        const std::vector<DiagnosticRow> rows = readDiagnosticFile(path);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(*rows[0].ecovSlot, 0.3);
        QVERIFY(!rows[0].deltaNll && !rows[0].ear && !rows[0].topK && !rows[0].errSlot);
        QCOMPARE(rows[0].coverageType, CoverageType::MeasuredTokenCoverage);
        QVERIFY(!rows[1].ecovSlot);
        QCOMPARE(*rows[1].deltaNll, 2.5);
        QCOMPARE(rows[1].coverageType, CoverageType::StructuralPositionAddressability);
        QCOMPARE(*rows[2].topK, 0.93);
        QVERIFY(!rows[3].coverageType.has_value()); // empty coverage_type stays null
        // Signatures by the table: 0.3 measured -> low; structural + drift 2.5 ->
        // structural drift; 0.95 projected, |0.02| ≤ 0.1, TopK 0.93 -> decode;
        // row 4 has no coverage type but ECov ≥ 0.9 -> decode rule still applies.
        QCOMPARE(classifySignature(rows[0]), Signature::LowMappedCoverage);
        QCOMPARE(classifySignature(rows[1]), Signature::StructuralPositionLikelihoodDrift);
        QCOMPARE(classifySignature(rows[2]), Signature::DecodeScorerCandidate);
        QCOMPARE(classifySignature(rows[3]), Signature::DecodeScorerCandidate);
    }
    void jsonlWithPythonNaN()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rows.jsonl"));
        writeFileAtomically(path,
                            "{\"ECov_slot\": 0.6, \"delta_NLL\": NaN, \"EAR\": null, "
                            "\"coverage_type\": \"measured_token_coverage\", \"s\": \"NaN\"}\n"
                            "\n"
                            "{\"ECov_slot\": \"0.1\", \"TopK\": -Infinity, \"coverage_type\": "
                            "\"projected_token_coverage\"}\n");
        const std::vector<DiagnosticRow> rows = readDiagnosticFile(path);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(*rows[0].ecovSlot, 0.6);
        QVERIFY(!rows[0].deltaNll && !rows[0].ear);
        QCOMPARE(*rows[1].ecovSlot, 0.1);
        QVERIFY(!rows[1].topK);
        QCOMPARE(classifySignature(rows[0]), Signature::PartialMappedCoverage);
        QCOMPARE(classifySignature(rows[1]), Signature::LowMappedCoverage);
    }
    void malformedNamesFileRowAndColumn()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("bad.csv"));
        writeFileAtomically(csv, "ECov_slot,EAR\n0.5,0.2\n0.4,abc\n");
        try {
            readDiagnosticFile(csv);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(csv) && e.message().contains(QLatin1String("line 3")) &&
                         e.message().contains(QLatin1String("EAR")),
                     qPrintable(e.message()));
        }
        const QString jsonl = dir.filePath(QStringLiteral("bad.jsonl"));
        writeFileAtomically(jsonl, "{\"coverage_type\": \"measured\"}\n");
        QVERIFY_THROWS_EXCEPTION(Error, readDiagnosticFile(jsonl));
        writeFileAtomically(jsonl, "{\"ECov_slot\": 0.5}\n{oops\n");
        try {
            readDiagnosticFile(jsonl);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("line 2")), qPrintable(e.message()));
        }
        const QString ragged = dir.filePath(QStringLiteral("ragged.csv"));
        writeFileAtomically(ragged, "ECov_slot,EAR\n0.5\n");
        QVERIFY_THROWS_EXCEPTION(Error, readDiagnosticFile(ragged));
    }
    void rowJsonRoundTrip()
    {
        DiagnosticRow row;
        row.ecovSlot = 0.7;
        row.gpr = 0.5;
        row.coverageType = CoverageType::ProjectedTokenCoverage;
        const QJsonObject json = diagnosticRowToJson(row);
        QVERIFY(json.value(QLatin1String("ECov_slot")).isDouble());
        QVERIFY(json.value(QLatin1String("delta_NLL")).isNull());
        QCOMPARE(json.value(QLatin1String("coverage_type")).toString(),
                 QStringLiteral("projected_token_coverage"));
        QCOMPARE(diagnosticRowFromJson(json), row);
    }
    void csvSplitting()
    {
        // classify reads CSV through the core's one CSV reader: quotes, CRLF, blank lines.
        const CsvTable table =
            parseCsvTable("w,x,y,z\r\n\r\na,\"b,c\",,\"d\"\"e\"\r\n", QStringLiteral("t.csv"));
        QCOMPARE(table.rows.size(), std::size_t(1));
        QCOMPARE(table.rows.front(), (QStringList{"a", "b,c", "", "d\"e"}));
        QCOMPARE(table.lines.front(), 3);
    }
    void failureOverlap_()
    {
        // A = {1,2,3,4}, B = {3,4,5}: A-only {1,2} = 2, B-only {5} = 1, both {3,4} = 2,
        // Jaccard = 2 / 5 = 0.4.
        const FailureOverlap o = failureOverlap({1, 2, 3, 4}, {3, 4, 5});
        QCOMPARE(o.aOnly, 2);
        QCOMPARE(o.bOnly, 1);
        QCOMPARE(o.both, 2);
        QCOMPARE(*o.jaccard, 0.4);
        QVERIFY(!failureOverlap({}, {}).jaccard.has_value());
        QCOMPARE(*failureOverlap({}, {7}).jaccard, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticFile)
#include "tst_diagnosticfile.moc"
