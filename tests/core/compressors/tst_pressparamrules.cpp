// The parameter types and ranges `kvlens-cli presses --json` prints (PressCatalog::toJson)
// are the ones the press factories enforce: every printed bound is tried on the factory
// itself, one step inside (accepted) and one step outside (refused, naming the parameter).
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>

using namespace kvl;

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

// Why building `spec` failed, or empty when it built.
QString buildError(const PressCatalog& catalog, const PressSpec& spec)
{
    try {
        catalog.press(spec);
    } catch (const Error& e) {
        return e.message();
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

// The press's example spec with `key=value` added; a parameter read only under a switch
// (cur's seed under random_leverage) gets that switch turned on too.
PressSpec withParam(const PressCatalog& catalog, const PressEntry& e, const QString& key,
                    const QString& value)
{
    PressSpec base;
    for (const QString& s : catalog.exampleSpecs())
        if (PressSpec::parse(s).name == e.name)
            base = PressSpec::parse(s);
    if (base.name.isEmpty())
        base = PressSpec::parse(e.name);
    PressSpec spec = base;
    // The example may set the parameter already (finch:window=64): replace it.
    std::erase_if(spec.params, [&key](const auto& kv) { return kv.first == key; });
    spec.params.emplace_back(key, value);
    if (!buildError(catalog, spec).contains(QLatin1String("unknown for")))
        return spec;
    for (const PressEntry::Param& p : e.params) {
        if (p.defaultValue != QLatin1String("false"))
            continue;
        PressSpec on = spec;
        on.params.emplace_back(p.name, QStringLiteral("true"));
        if (!buildError(catalog, on).contains(QLatin1String("unknown for")))
            return on;
    }
    return spec;
}

const PressEntry& entryNamed(const PressCatalog& catalog, const QString& name)
{
    const PressEntry* e = catalog.find(name);
    if (!e)
        qFatal("no entry %s", qPrintable(name));
    return *e;
}

} // namespace

class TestPressParamRules : public QObject
{
    Q_OBJECT
  private slots:
    // Every parameter a press declares is one its factory reads (with a type), and
    // every parameter the factory reads is declared.
    void declaredParametersAreTheOnesRead()
    {
        const PressCatalog catalog;
        for (const PressEntry& e : catalog.entries()) {
            if (!e.unavailable.isEmpty())
                continue;
            QStringList declared, read;
            for (const PressEntry::Param& p : e.params)
                declared << p.name;
            for (const ParamRule& r : catalog.paramRules(e))
                read << r.name;
            declared.sort();
            read.sort();
            QVERIFY2(declared == read,
                     qPrintable(QStringLiteral("%1: declared %2, read %3")
                                    .arg(e.name, declared.join(u' '), read.join(u' '))));
        }
    }

    void printedRangeIsEnforced_data()
    {
        QTest::addColumn<QString>("press");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("type");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        const PressCatalog catalog;
        int rows = 0;
        for (const QJsonValue& pv : catalog.toJson()) {
            const QJsonObject press = pv.toObject();
            if (!press.value(QLatin1String("available")).toBool())
                continue;
            for (const QJsonValue& v : press.value(QLatin1String("params")).toArray()) {
                const QJsonObject o = v.toObject();
                const QString type = o.value(QLatin1String("type")).toString();
                if (type != QLatin1String("int") && type != QLatin1String("float") &&
                    type != QLatin1String("floats"))
                    continue;
                QVERIFY(o.contains(QLatin1String("min")) && o.contains(QLatin1String("max")));
                const QString name = press.value(QLatin1String("name")).toString();
                const QString param = o.value(QLatin1String("name")).toString();
                QTest::addRow("%s.%s", qPrintable(name), qPrintable(param))
                    << name << param << type << o.value(QLatin1String("min")).toDouble()
                    << o.value(QLatin1String("max")).toDouble();
                ++rows;
            }
        }
        QVERIFY(rows > 60);
    }

    void printedRangeIsEnforced()
    {
        QFETCH(QString, press);
        QFETCH(QString, param);
        QFETCH(QString, type);
        QFETCH(double, min);
        QFETCH(double, max);
        QVERIFY(min <= max);
        const PressCatalog catalog;
        const PressEntry& e = entryNamed(catalog, press);
        const bool integer = type == QLatin1String("int");
        const double below =
            integer ? min - 1 : std::nextafter(min, -std::numeric_limits<double>::infinity());
        const double above =
            integer ? max + 1 : std::nextafter(max, std::numeric_limits<double>::infinity());
        const QString outside = QStringLiteral("parameter '%1'").arg(param);
        for (const double v : {below, above}) {
            const QString why = buildError(catalog, withParam(catalog, e, param, number(v)));
            QVERIFY2(why.contains(outside) && why.contains(QLatin1String("outside")),
                     qPrintable(QStringLiteral("%1=%2: %3").arg(param, number(v), why)));
        }
        // The bounds themselves pass the range check (the press may refuse them for
        // another reason, e.g. a context too short at build time, never as out of range).
        for (const double v : {min, max}) {
            const QString why = buildError(catalog, withParam(catalog, e, param, number(v)));
            QVERIFY2(!why.contains(QLatin1String("outside")) &&
                         !why.contains(QLatin1String("unknown for")),
                     qPrintable(QStringLiteral("%1=%2: %3").arg(param, number(v), why)));
        }
    }

    // Switches and choices as printed: both switch values build; every printed choice
    // is accepted and another value is refused naming the choices.
    void switchesAndChoicesAsPrinted()
    {
        const PressCatalog catalog;
        int choices = 0;
        for (const QJsonValue& pv : catalog.toJson()) {
            const QJsonObject press = pv.toObject();
            if (!press.value(QLatin1String("available")).toBool())
                continue;
            const PressEntry& e =
                entryNamed(catalog, press.value(QLatin1String("name")).toString());
            for (const QJsonValue& v : press.value(QLatin1String("params")).toArray()) {
                const QJsonObject o = v.toObject();
                const QString param = o.value(QLatin1String("name")).toString();
                const QString type = o.value(QLatin1String("type")).toString();
                QVERIFY2(!type.isEmpty(), qPrintable(e.name + u'.' + param));
                QStringList good;
                QString bad;
                if (type == QLatin1String("bool")) {
                    good = {QStringLiteral("true"), QStringLiteral("false")};
                    bad = QStringLiteral("maybe");
                } else if (type == QLatin1String("choice")) {
                    for (const QJsonValue& c : o.value(QLatin1String("choices")).toArray())
                        good << c.toString();
                    QVERIFY(good.size() >= 2);
                    QVERIFY(good.contains(o.value(QLatin1String("default")).toString()));
                    bad = QStringLiteral("bogus");
                    ++choices;
                } else {
                    continue;
                }
                for (const QString& g : good) {
                    const QString why = buildError(catalog, withParam(catalog, e, param, g));
                    QVERIFY2(!why.contains(QStringLiteral("parameter '%1'").arg(param)),
                             qPrintable(QStringLiteral("%1.%2=%3: %4").arg(e.name, param, g, why)));
                }
                const QString why = buildError(catalog, withParam(catalog, e, param, bad));
                QVERIFY2(why.contains(QStringLiteral("parameter '%1'").arg(param)),
                         qPrintable(QStringLiteral("%1.%2=%3: %4").arg(e.name, param, bad, why)));
            }
        }
        QVERIFY(choices >= 5); // cur leverage, shadowkv svd, kvcompose's three aggregations
    }

    // Every rule line names where it comes from (issue 17): the kvpress file it follows,
    // its paper (authors "et al.", or two authors "A & B", with the year; or an arXiv id),
    // or KVLens where the rule is KVLens's own. All offenders are listed at once.
    void ruleNamesItsSource()
    {
        const PressCatalog catalog;
        static const QRegularExpression twoAuthors(
            QStringLiteral("\\p{Lu}\\w+ & \\p{Lu}\\w+,? (?:\\w+ )?\\d{4}"));
        QStringList unnamed;
        for (const PressEntry& e : catalog.entries()) {
            QVERIFY2(!e.rule.contains(u'\n'),
                     qPrintable(e.name + QStringLiteral(": rule spans lines")));
            const bool named = e.rule.contains(QLatin1String("kvpress")) ||
                               e.rule.contains(QLatin1String("et al")) ||
                               e.rule.contains(QLatin1String("arXiv")) ||
                               e.rule.contains(QLatin1String("KVLens")) ||
                               twoAuthors.match(e.rule).hasMatch();
            if (!named)
                unnamed << e.name;
        }
        QVERIFY2(unnamed.isEmpty(),
                 qPrintable(QStringLiteral("rules naming no source: ") + unnamed.join(u' ')));
    }

    void scorerInnerListsTheScorers()
    {
        const PressCatalog catalog;
        for (const QJsonValue& pv : catalog.toJson()) {
            const QJsonObject press = pv.toObject();
            if (press.value(QLatin1String("name")).toString() != QLatin1String("adakv"))
                continue;
            QCOMPARE(press.value(QLatin1String("inner_type")).toString(), QStringLiteral("scorer"));
            const QJsonArray scorers = press.value(QLatin1String("inner_choices")).toArray();
            QVERIFY(scorers.contains(QStringLiteral("snapkv")));
            QVERIFY(!scorers.contains(QStringLiteral("adakv"))); // a selector, not a scorer
            for (const QJsonValue& s : scorers) {
                const PressEntry* e = catalog.find(s.toString());
                QVERIFY2(e && e->makeScorer, qPrintable(s.toString()));
            }
            return;
        }
        QFAIL("adakv not listed");
    }
};

QTEST_GUILESS_MAIN(TestPressParamRules)
#include "tst_pressparamrules.moc"
