// runSpecDifference: the one comparison `kvlens-cli run` (resume) and the New run dialog
// use to decide whether a run file holds the experiment about to run.
#include "store/runspecdifference.h"

#include <QJsonArray>
#include <QTest>

using namespace kvl;

class TestRunSpecDifference : public QObject
{
    Q_OBJECT
  private slots:
    void difference_data()
    {
        QTest::addColumn<QJsonObject>("recorded");
        QTest::addColumn<QJsonObject>("wanted");
        QTest::addColumn<QString>("key");
        const QJsonObject base{{"seed", 1},
                               {"ratios", QJsonArray{0.5}},
                               {"compressors", QJsonArray{"snapkv"}},
                               {"threads", 1},
                               {"model", "bundled"}};
        const auto with = [&base](const char* k, const QJsonValue& v) {
            QJsonObject o = base;
            o.insert(QLatin1String(k), v);
            return o;
        };
        QTest::newRow("same") << base << base << QString();
        // Keys that name the shard, output, threads, model or template do not count.
        QTest::newRow("threads") << base << with("threads", 4) << QString();
        QTest::newRow("shard") << base << with("shard", "1/2") << QString();
        QTest::newRow("out") << base << with("out", "/x.kvl") << QString();
        QTest::newRow("model path") << base << with("model", "/models/m") << QString();
        QTest::newRow("template asked") << base << with("chat_template", "none") << QString();
        QTest::newRow("template used")
            << base << with("chat_template_used", QJsonObject{{"template", "x"}}) << QString();
        QTest::newRow("seed") << base << with("seed", 2) << QStringLiteral("seed");
        QTest::newRow("ratios") << base << with("ratios", QJsonArray{0.75})
                                << QStringLiteral("ratios");
        // The first key in sorted order over both specs, a key only one has included.
        QJsonObject two = with("seed", 2);
        two.insert(QStringLiteral("beta"), 3);
        QTest::newRow("first of two") << base << two << QStringLiteral("beta");
        QTest::newRow("first of two, swapped") << two << base << QStringLiteral("beta");
        QJsonObject missing = base;
        missing.remove(QStringLiteral("compressors"));
        QTest::newRow("missing key") << base << missing << QStringLiteral("compressors");
    }
    void difference()
    {
        QFETCH(QJsonObject, recorded);
        QFETCH(QJsonObject, wanted);
        QFETCH(QString, key);
        QCOMPARE(runSpecDifference(recorded, wanted), key);
    }
};

QTEST_GUILESS_MAIN(TestRunSpecDifference)
#include "tst_runspecdifference.moc"
