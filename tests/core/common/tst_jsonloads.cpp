#include "common/jsonloads.h"

#include <QtTest>

using kvl::JsonLoadsError;
using kvl::JsonLoadsValue;

// The common json.loads parser: what it accepts (checked against Python 3.11's
// json.loads by hand for each row) and where it says it stopped.
class TestJsonLoads : public QObject
{
    Q_OBJECT
  private slots:
    void acceptsAsJsonLoads_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("nan") << QStringLiteral("[NaN, Infinity, -Infinity]") << true;
        QTest::newRow("leading zero") << QStringLiteral("01") << false;
        QTest::newRow("bare point") << QStringLiteral("1.") << false;
        QTest::newRow("plus sign") << QStringLiteral("+1") << false;
        QTest::newRow("raw newline in string") << QStringLiteral("\"a\nb\"") << false;
        QTest::newRow("u escape with sign") << QStringLiteral(R"("\u+123")") << false;
        QTest::newRow("trailing comma") << QStringLiteral("[1,]") << false;
        QTest::newRow("extra data") << QStringLiteral("{} {}") << false;
        QTest::newRow("huge float") << QStringLiteral("1e400") << true;
        QTest::newRow("nbsp is not whitespace") << QStringLiteral("\u00a01") << false;
    }
    void acceptsAsJsonLoads()
    {
        QFETCH(QString, text);
        QFETCH(bool, accepted);
        QCOMPARE(kvl::jsonLoads(text).has_value(), accepted);
    }

    void keepsTypesOrderAndLastRepeatedKey()
    {
        const auto v = kvl::jsonLoads(QStringLiteral(R"({"b": -0, "a": 1.0, "b": 7})"));
        QVERIFY(v);
        QCOMPARE(v->members.size(), size_t(3));
        QCOMPARE(v->members[0].key, QStringLiteral("b"));
        QCOMPARE(v->members[0].value.text, QStringLiteral("0"));
        QCOMPARE(v->members[1].value.type, JsonLoadsValue::Type::Float);
        QCOMPARE(v->member(QStringLiteral("b"))->text, QStringLiteral("7"));
    }

    void reportsWhereItStopped_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad literal") << QStringLiteral("[{\"role\": \"user\",\n \"content\": tru}]")
                                     << 2 << 13 << QStringLiteral("unexpected character 't'");
        QTest::newRow("key expected") << QStringLiteral("[{\"a\": 1,}]") << 1 << 10
                                      << QStringLiteral("expected a string key");
        QTest::newRow("extra data") << QStringLiteral("1\n 2") << 2 << 2
                                    << QStringLiteral("unexpected text after the JSON value");
        QTest::newRow("too deep")
            << QString(kvl::kJsonLoadsMaxDepth, QLatin1Char('[')) << 1
            << kvl::kJsonLoadsMaxDepth + 1
            << QStringLiteral("nested deeper than %1 levels").arg(kvl::kJsonLoadsMaxDepth);
    }
    void reportsWhereItStopped()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        JsonLoadsError error;
        QVERIFY(!kvl::jsonLoads(text, &error));
        QCOMPARE(error.message, message);
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
    }
};

QTEST_GUILESS_MAIN(TestJsonLoads)
#include "tst_jsonloads.moc"
