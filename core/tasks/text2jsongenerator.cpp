#include "tasks/text2jsongenerator.h"

#include "tasks/contextbuilder.h"
#include "tasks/lexicon.h"
#include "tasks/namedrawer.h"
#include "tasks/phrases.h"
#include "tasks/rng.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace kvl {
namespace {
constexpr double kFactShare = 0.3;
constexpr int kMaxPeople = 12;

const QStringList kFields = {QStringLiteral("city"), QStringLiteral("job"),
                             QStringLiteral("colour"), QStringLiteral("pet")};

const QStringList& valuesOf(const QString& field)
{
    if (field == QLatin1String("city"))
        return lexicon::cities();
    if (field == QLatin1String("job"))
        return lexicon::jobs();
    if (field == QLatin1String("colour"))
        return lexicon::colours();
    return lexicon::animals();
}

QString factText(const QString& field, const QString& name, const QString& value)
{
    if (field == QLatin1String("city"))
        return QStringLiteral("%1 lives in %2.").arg(name, value);
    if (field == QLatin1String("job"))
        return QStringLiteral("%1 works as a %2.").arg(name, value);
    if (field == QLatin1String("colour"))
        return QStringLiteral("The favourite colour of %1 is %2.").arg(name, value);
    return QStringLiteral("%1 has a pet %2.").arg(name, value);
}

QString jsonString(const QString& text)
{
    // QJsonDocument escapes exactly as JSON requires; strip the array brackets.
    const QByteArray a = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

struct Fact
{
    QString name;
    QString field;
    QString value;
    bool asked = false;
};
} // namespace

QString Text2JsonGenerator::description() const
{
    return QStringLiteral("extract every person with the asked fields from scattered "
                          "sentences into a JSON list; scored by the Text2JSON rule");
}

QStringList Text2JsonGenerator::variants() const
{
    return {QStringLiteral("fields2"), QStringLiteral("fields3"), QStringLiteral("fields4"),
            QStringLiteral("people2")};
}

QStringList Text2JsonGenerator::drawnVariants() const
{
    return {QStringLiteral("fields2"), QStringLiteral("fields3"), QStringLiteral("fields4")};
}

QString Text2JsonGenerator::variantDescription(const QString& variant) const
{
    if (variant.startsWith(QLatin1String("fields")))
        return QStringLiteral("%1 of the fields city, job, colour, pet asked per person")
            .arg(variant.mid(6));
    if (variant == QLatin1String("people2"))
        return QStringLiteral("one or two people, one or two of the fields city, job, colour, "
                              "pet asked (asked by name only, never drawn)");
    return {};
}

Sample Text2JsonGenerator::generateVariant(const Tokenizer& tokenizer, const QString& variant,
                                           const LengthRequest& length, Rng& rng) const
{
    ContextBuilder builder(tokenizer, rng);
    NameDrawer names(rng);
    const bool few = variant == QLatin1String("people2");
    const int fieldCount = few ? rng.range(1, 2) : variant.mid(6).toInt();
    std::vector<QString> order(kFields.begin(), kFields.end());
    rng.shuffle(order);
    QStringList asked;
    for (const QString& f : kFields) // asked fields in the canonical order
        if (std::find(order.begin(), order.begin() + fieldCount, f) != order.begin() + fieldCount)
            asked << f;

    const int factTokens = std::max(
        1, builder.countTokens(QStringLiteral(" The favourite colour of Anna Berg is red.")));
    const int people =
        few ? rng.range(1, 2)
            : std::clamp(int(kFactShare * length.target / (factTokens * (fieldCount + 1))), 2,
                         kMaxPeople);

    std::vector<Fact> facts;
    QStringList peopleNames;
    for (int p = 0; p < people; ++p) {
        const QString name = names.fresh();
        peopleNames << name;
        for (const QString& field : kFields) {
            const bool isAsked = asked.contains(field);
            // Unasked fields appear now and then as distractors.
            if (!isAsked && !rng.chance(0.3))
                continue;
            const QStringList& values = valuesOf(field);
            facts.push_back({name, field, values.at(rng.below(int(values.size()))), isAsked});
        }
        if (rng.chance(0.3))
            facts.push_back(
                {name, QStringLiteral("code"), QString::number(rng.range(0, 9999)), false});
    }
    rng.shuffle(facts);

    for (const Fact& f : facts) {
        const QString text = f.field == QLatin1String("code")
                                 ? phrases::codeRecord(f.name, f.value.toInt())
                                 : factText(f.field, f.name, f.value);
        builder.addBody(Piece::whole(text, f.asked ? SpanKind::Evidence : SpanKind::Distractor,
                                     f.name + QLatin1Char('.') + f.field));
    }

    // Gold objects in order of first mention, keys: name, then the asked fields.
    QStringList mentioned;
    for (const Fact& f : facts)
        if (!mentioned.contains(f.name))
            mentioned << f.name;
    QStringList objects;
    QJsonArray gold;
    for (const QString& name : mentioned) {
        QStringList members{QStringLiteral("\"name\":") + jsonString(name)};
        QJsonObject object{{QStringLiteral("name"), name}};
        for (const QString& field : asked)
            for (const Fact& f : facts)
                if (f.name == name && f.field == field) {
                    members << jsonString(field) + QLatin1Char(':') + jsonString(f.value);
                    object.insert(field, f.value);
                }
        objects << QLatin1Char('{') + members.join(QLatin1Char(',')) + QLatin1Char('}');
        gold.append(object);
    }

    Sample sample;
    sample.context = builder.build(length.target, length.minTokens, length.maxTokens, sample.spans);
    QStringList keys{QStringLiteral("name")};
    keys << asked;
    sample.question = phrases::question(
        QStringLiteral("List every person as JSON with the keys %1.").arg(phrases::joinAnd(keys)));
    sample.answer = QLatin1Char('[') + objects.join(QLatin1Char(',')) + QLatin1Char(']');
    sample.meta.insert(QStringLiteral("fields"), QJsonArray::fromStringList(asked));
    sample.meta.insert(QStringLiteral("objects"), gold);
    return sample;
}

} // namespace kvl
