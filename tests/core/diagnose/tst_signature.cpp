// The KVDiagnosis signature rules as a table: one row per rule (with its boundaries),
// then conflicting, ambiguous and null cases. Expected names come from the
// SCIENCE.md table, not from the code.
#include "diagnose/signature.h"
#include "diagnose/transition.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace kvl;

namespace {
constexpr double N = std::numeric_limits<double>::quiet_NaN(); // null in the table

std::optional<double> v(double x)
{
    return std::isnan(x) ? std::nullopt : std::optional<double>(x);
}
} // namespace

class TestSignature : public QObject
{
    Q_OBJECT
  private slots:
    void classify_data()
    {
        QTest::addColumn<QString>("coverage"); // "" = null
        QTest::addColumn<double>("ecov");
        QTest::addColumn<double>("dnll");
        QTest::addColumn<double>("ear");
        QTest::addColumn<double>("topk");
        QTest::addColumn<QStringList>("fired");
        QTest::addColumn<QString>("signature");

        const QString m = QStringLiteral("measured_token_coverage");
        const QString p = QStringLiteral("projected_token_coverage");
        const QString s = QStringLiteral("structural_position_addressability");
        const QString na = QStringLiteral("not_applicable");
        const QString low = QStringLiteral("low_mapped_coverage");
        const QString partial = QStringLiteral("partial_mapped_coverage");
        const QString high = QStringLiteral("high_mapped_coverage_likelihood_drift");
        const QString structural = QStringLiteral("structural_position_likelihood_drift");
        const QString lowEar = QStringLiteral("low_ear_candidate");
        const QString decode = QStringLiteral("decode_scorer_candidate");
        const QString conflicting = QStringLiteral("conflicting_diagnostic_signals");
        const QString ambiguous = QStringLiteral("ambiguous");

        // One row per rule.
        QTest::newRow("low: measured ECov 0.30")
            << m << 0.30 << N << N << N << QStringList{low} << low;
        QTest::newRow("low: projected ECov 0.49, drift irrelevant")
            << p << 0.49 << 3.0 << N << N << QStringList{low} << low;
        QTest::newRow("partial: ECov 0.50 (lower bound inclusive)")
            << p << 0.50 << N << N << N << QStringList{partial} << partial;
        QTest::newRow("partial: ECov 0.899")
            << m << 0.899 << 0.0 << N << 0.5 << QStringList{partial} << partial;
        QTest::newRow("high+drift: ECov 0.90, dNLL 1.0 (both bounds inclusive)")
            << m << 0.90 << 1.0 << N << N << QStringList{high} << high;
        QTest::newRow("structural drift: dNLL 2.3")
            << s << N << 2.3 << N << N << QStringList{structural} << structural;
        QTest::newRow("low EAR: structural, EAR 0.30")
            << s << N << 0.5 << 0.30 << N << QStringList{lowEar} << lowEar;
        QTest::newRow("low EAR: measured ECov 0.92, EAR 0.49")
            << m << 0.92 << 0.5 << 0.49 << 0.2 << QStringList{lowEar} << lowEar;
        QTest::newRow("decode: ECov 0.95, dNLL -0.05, TopK 0.95")
            << m << 0.95 << -0.05 << 0.9 << 0.95 << QStringList{decode} << decode;
        QTest::newRow("decode: structural, |dNLL| 0.10, TopK null")
            << s << N << 0.10 << N << N << QStringList{decode} << decode;
        QTest::newRow("decode: TopK 0.90 (inclusive)")
            << s << N << -0.1 << N << 0.90 << QStringList{decode} << decode;

        // Conflicting: more than one rule fires.
        QTest::newRow("conflicting: high drift + low EAR")
            << m << 0.95 << 1.5 << 0.2 << N << QStringList{high, lowEar} << conflicting;
        QTest::newRow("conflicting: low EAR + decode")
            << s << N << 0.05 << 0.1 << 0.99 << QStringList{lowEar, decode} << conflicting;
        QTest::newRow("conflicting: structural drift + low EAR")
            << s << N << 1.2 << 0.4 << N << QStringList{structural, lowEar} << conflicting;

        // Ambiguous: none fires.
        QTest::newRow("ambiguous: high coverage, moderate drift, EAR fine")
            << m << 0.95 << 0.5 << 0.8 << 0.5 << QStringList{} << ambiguous;
        QTest::newRow("ambiguous: decode blocked by TopK 0.80")
            << s << N << 0.0 << N << 0.80 << QStringList{} << ambiguous;
        QTest::newRow("ambiguous: EAR 0.50 is not < 0.50")
            << s << N << 0.5 << 0.50 << N << QStringList{} << ambiguous;
        QTest::newRow("ambiguous: dNLL 0.11 just above the decode bound")
            << s << N << 0.11 << N << N << QStringList{} << ambiguous;

        // Nulls never fire a rule that needs them.
        QTest::newRow("null ECov on a measured row")
            << m << N << 3.0 << 0.1 << 0.99 << QStringList{} << ambiguous;
        QTest::newRow("null coverage_type, low ECov")
            << QString() << 0.2 << N << N << N << QStringList{} << ambiguous;
        QTest::newRow("not_applicable, low ECov")
            << na << 0.3 << N << N << N << QStringList{} << ambiguous;
        QTest::newRow("structural, every metric null")
            << s << N << N << N << N << QStringList{} << ambiguous;
        QTest::newRow("high coverage, null dNLL and EAR")
            << m << 0.97 << N << N << 0.99 << QStringList{} << ambiguous;
        QTest::newRow("all null") << QString() << N << N << N << N << QStringList{} << ambiguous;
    }

    void classify()
    {
        QFETCH(QString, coverage);
        QFETCH(double, ecov);
        QFETCH(double, dnll);
        QFETCH(double, ear);
        QFETCH(double, topk);
        QFETCH(QStringList, fired);
        QFETCH(QString, signature);

        DiagnosticRow row;
        if (!coverage.isEmpty())
            row.coverageType = coverageTypeFromName(coverage);
        QCOMPARE(row.coverageType.has_value(), !coverage.isEmpty());
        row.ecovSlot = v(ecov);
        row.deltaNll = v(dnll);
        row.ear = v(ear);
        row.topK = v(topk);
        // Columns the rules do not read must not change the outcome.
        row.errSlot = 0.1;
        row.kl = 5.0;

        QStringList firedNames;
        for (Signature s : firedSignatureRules(row))
            firedNames << signatureName(s);
        QCOMPARE(firedNames, fired);
        QCOMPARE(signatureName(classifySignature(row)), signature);
        QCOMPARE(signatureFromName(signature), classifySignature(row));
    }

    void namesRoundTrip()
    {
        QCOMPARE(allSignatures().size(), std::size_t(8));
        for (Signature s : allSignatures())
            QCOMPARE(signatureFromName(signatureName(s)), s);
        QVERIFY(!signatureFromName(QStringLiteral("low coverage")).has_value());
    }

    void transitions()
    {
        QCOMPARE(transitionName(transitionOf(true, true)), QStringLiteral("C->C"));
        QCOMPARE(transitionName(transitionOf(true, false)), QStringLiteral("C->W"));
        QCOMPARE(transitionName(transitionOf(false, true)), QStringLiteral("W->C"));
        QCOMPARE(transitionName(transitionOf(false, false)), QStringLiteral("W->W"));
        QCOMPARE(transitionFromName(QStringLiteral("C→W")), Transition::CorrectToWrong);
        QVERIFY(!transitionFromName(QStringLiteral("CW")).has_value());
    }
};

QTEST_GUILESS_MAIN(TestSignature)
#include "tst_signature.moc"
