// Which rows the boost/sham interventions re-answer: KVDiagnosis targets C->W rows
// whose evidence the cache still holds (mapped ECov_slot >= 0.90 or structurally
// addressable) but whose attention went elsewhere (EAR < 0.50).
#include "diagnose/interventionplan.h"

#include <QtTest>

using namespace kvl;

Q_DECLARE_METATYPE(kvl::DiagnosticRow)

namespace {
DiagnosticRow row(std::optional<CoverageType> coverage, std::optional<double> ecov,
                  std::optional<double> ear)
{
    DiagnosticRow r;
    r.coverageType = coverage;
    r.ecovSlot = ecov;
    r.ear = ear;
    return r;
}
} // namespace

class TestInterventionPlan : public QObject
{
    Q_OBJECT

  private slots:
    void groupOfRow_data()
    {
        QTest::addColumn<bool>("cToW");
        QTest::addColumn<DiagnosticRow>("diagnostics");
        QTest::addColumn<QString>("group");
        const auto measured = CoverageType::MeasuredTokenCoverage;
        const auto projected = CoverageType::ProjectedTokenCoverage;
        const auto structural = CoverageType::StructuralPositionAddressability;
        const auto none = CoverageType::NotApplicable;
        QTest::newRow("retained, low EAR") << true << row(measured, 0.95, 0.30) << "retained";
        QTest::newRow("ECov exactly 0.90") << true << row(measured, 0.90, 0.49) << "retained";
        QTest::newRow("projected coverage") << true << row(projected, 1.0, 0.1) << "retained";
        QTest::newRow("structural, no ECov")
            << true << row(structural, std::nullopt, 0.2) << "retained";
        // The 1,181 of 1,182 rows of issue 18: low EAR because the evidence is gone.
        QTest::newRow("evicted, low EAR") << true << row(measured, 0.20, 0.30) << "evicted_low_ear";
        QTest::newRow("ECov 0.89") << true << row(measured, 0.89, 0.30) << "evicted_low_ear";
        QTest::newRow("coverage not applicable")
            << true << row(none, std::nullopt, 0.10) << "evicted_low_ear";
        // ECov_slot >= 0.90 counts as retained whatever the label (the classifier's rule).
        QTest::newRow("ECov without coverage type")
            << true << row(std::nullopt, 0.95, 0.10) << "retained";
        QTest::newRow("EAR exactly 0.50") << true << row(measured, 0.95, 0.50) << "other_c_to_w";
        QTest::newRow("no EAR") << true << row(measured, 0.95, std::nullopt) << "other_c_to_w";
        QTest::newRow("evicted, high EAR") << true << row(measured, 0.1, 0.9) << "other_c_to_w";
        QTest::newRow("not C->W") << false << row(measured, 0.95, 0.30) << "not_c_to_w";
    }
    void groupOfRow()
    {
        QFETCH(bool, cToW);
        QFETCH(DiagnosticRow, diagnostics);
        QFETCH(QString, group);
        QCOMPARE(interventionGroupName(interventionGroupOf(cToW, diagnostics)), group);
    }

    // Conflicting signals do not hide the row: the rule, not the final signature, decides.
    void retainedEvenWhenOtherRulesFire()
    {
        DiagnosticRow r = row(CoverageType::MeasuredTokenCoverage, 0.95, 0.2);
        r.deltaNll = 2.0; // high_mapped_coverage_likelihood_drift fires too
        QCOMPARE(interventionGroupOf(true, r), InterventionGroup::Retained);
    }

    void targetsSelectGroups_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("groups");
        QTest::newRow("retained") << "retained"
                                  << "retained";
        QTest::newRow("low_ear") << "low_ear"
                                 << "retained evicted_low_ear";
        QTest::newRow("c_to_w") << "c_to_w"
                                << "retained evicted_low_ear other_c_to_w";
        QTest::newRow("all") << "all"
                             << "retained evicted_low_ear other_c_to_w not_c_to_w";
    }
    void targetsSelectGroups()
    {
        QFETCH(QString, target);
        QFETCH(QString, groups);
        const std::optional<InterventionTarget> t = interventionTargetFromName(target);
        QVERIFY(t);
        QCOMPARE(interventionTargetName(*t), target);
        QStringList got;
        for (const QString& name : {QStringLiteral("retained"), QStringLiteral("evicted_low_ear"),
                                    QStringLiteral("other_c_to_w"), QStringLiteral("not_c_to_w")})
            if (targetIncludes(*t, *interventionGroupFromName(name)))
                got << name;
        QCOMPARE(got.join(QLatin1Char(' ')), groups);
    }

    void names()
    {
        QCOMPARE(interventionTargetNames(),
                 (QStringList{QStringLiteral("retained"), QStringLiteral("low_ear"),
                              QStringLiteral("c_to_w"), QStringLiteral("all")}));
        QVERIFY(!interventionTargetFromName(QStringLiteral("everything")));
        QVERIFY(!interventionGroupFromName(QStringLiteral("low_ear")));
    }
};

QTEST_GUILESS_MAIN(TestInterventionPlan)
#include "tst_interventionplan.moc"
