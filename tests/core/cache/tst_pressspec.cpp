// Spec parsing, typed parameters and the kept-mask helpers every press shares.
#include <torch/types.h>

#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "cache/pressspec.h"
#include "common/error.h"

#include <QtTest>
#include <cmath>

using namespace kvl;

class TestPressSpec : public QObject
{
    Q_OBJECT

  private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("inner");
        QTest::addColumn<int>("params");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("bare") << "knorm"
                              << "knorm" << 0 << 0 << "knorm";
        QTest::newRow("params") << "snapkv:window=64,kernel=5"
                                << "snapkv" << 0 << 2 << "snapkv:window=64,kernel=5";
        QTest::newRow("nested") << "AdaKV(snapkv:window=16):alpha_safeguard=0.2"
                                << "adakv" << 1 << 1
                                << "adakv(snapkv:window=16):alpha_safeguard=0.2";
        QTest::newRow("composed") << " composed(streamingllm+knorm):ratios=0.5;0.25 "
                                  << "composed" << 2 << 1
                                  << "composed(streamingllm+knorm):ratios=0.5;0.25";
        QTest::newRow("path value") << "qfilter:file=/tmp/f.safetensors"
                                    << "qfilter" << 0 << 1 << "qfilter:file=/tmp/f.safetensors";
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(int, inner);
        QFETCH(int, params);
        QFETCH(QString, canonical);
        const PressSpec s = PressSpec::parse(text);
        QCOMPARE(s.name, name);
        QCOMPARE(int(s.inner.size()), inner);
        QCOMPARE(int(s.params.size()), params);
        QCOMPARE(s.toString(), canonical);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << ""
                               << "expected a press name";
        QTest::newRow("unclosed") << "adakv(snapkv"
                                  << "expected ')'";
        QTest::newRow("no value") << "snapkv:window="
                                  << "expected a value";
        QTest::newRow("no equals") << "snapkv:window"
                                   << "expected '='";
        QTest::newRow("twice") << "snapkv:window=1,window=2"
                               << "given twice";
        QTest::newRow("trailing") << "snapkv)"
                                  << "unexpected ')'";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, problem);
        try {
            PressSpec::parse(text);
            QFAIL("accepted a bad spec");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(problem), qPrintable(e.message()));
            QVERIFY(e.message().contains(QLatin1String("press spec")));
        }
    }

    void typedParams()
    {
        PressParams p(PressSpec::parse(QStringLiteral("x:a=3,b=0.5,c=true,d=1;2")));
        QCOMPARE(p.integer(QStringLiteral("a"), 1, 0, 10), 3);
        QCOMPARE(p.real(QStringLiteral("b"), 0.1, 0.0, 1.0), 0.5);
        QCOMPARE(p.flag(QStringLiteral("c"), false), true);
        QCOMPARE(p.reals(QStringLiteral("d"), 0, 5), (std::vector<double>{1, 2}));
        QCOMPARE(p.integer(QStringLiteral("e"), 7, 0, 10), 7);
        p.finish();
        QCOMPARE(p.canonical(), QStringLiteral("x:a=3,b=0.5,c=true,d=1;2,e=7"));

        PressParams unknown(PressSpec::parse(QStringLiteral("x:zz=1")));
        QVERIFY_THROWS_EXCEPTION(Error, unknown.finish());
        PressParams range(PressSpec::parse(QStringLiteral("x:a=11")));
        QVERIFY_THROWS_EXCEPTION(Error, range.integer(QStringLiteral("a"), 1, 0, 10));
    }

    void budgets()
    {
        // int(T(1 - r)) in double arithmetic, as Python computes it.
        QCOMPARE(keptPerHead(4096, 0.75), int64_t(1024));
        QCOMPARE(keptPerHead(10, 0.7), int64_t(3)); // 10 * 0.30000000000000004
        QCOMPARE(keptPerHead(10, 0.9), int64_t(0)); // 10 * 0.09999999999999998
        QCOMPARE(keptPerHead(7, 0.0), int64_t(7));
        for (double bad : {-0.01, 1.0, 2.0, double(NAN)})
            QVERIFY_THROWS_EXCEPTION(Error, checkRatio(bad, QStringLiteral("p")));
        checkRatio(0.0, QStringLiteral("p"));
        checkRatio(0.999, QStringLiteral("p"));
    }

    void topKTiesAndProtection()
    {
        // Scores 1, 3, 3, 0, +inf: +inf ranks first, then the tie 3/3 goes to the earlier
        // position: the 2 best are 4 and 1.
        const at::Tensor s = torch::tensor({1.0f, 3.0f, 3.0f, 0.0f, float(INFINITY)});
        QVERIFY(topKMask(s, 2).equal(torch::tensor({false, true, false, false, true})));
        // k = 0 still keeps protected entries.
        QVERIFY(topKMask(s, 0).equal(torch::tensor({false, false, false, false, true})));
        // Per-row budgets.
        const at::Tensor rows = torch::tensor({{1.0f, 2.0f, 3.0f}, {3.0f, 2.0f, 1.0f}});
        QVERIFY(topKMaskPerRow(rows, torch::tensor({1, 2}))
                    .equal(torch::tensor({{false, false, true}, {true, true, false}})));
    }
};

QTEST_GUILESS_MAIN(TestPressSpec)
#include "tst_pressspec.moc"
