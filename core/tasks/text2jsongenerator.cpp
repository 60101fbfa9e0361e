#include "tasks/text2jsongenerator.h"

#include "tasks/contextbuilder.h"
#include "tasks/lexicon.h"
#include "tasks/namedrawer.h"
#include "tasks/phrases.h"
#include "tasks/rng.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <optional>

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

// The answer to "List every person as JSON with the keys name, <fields>": one object
// per person of `people` (in order of first mention), keys name then `fields` in
// canonical order; a field a person has no sentence for is left out of that object.
QString listAnswer(const QStringList& people, const std::vector<Fact>& facts,
                   const QStringList& fields, QJsonArray* gold = nullptr)
{
    QStringList objects;
    for (const QString& name : people) {
        QStringList members{QStringLiteral("\"name\":") + jsonString(name)};
        QJsonObject object{{QStringLiteral("name"), name}};
        for (const QString& field : fields)
            for (const Fact& f : facts)
                if (f.name == name && f.field == field) {
                    members << jsonString(field) + QLatin1Char(':') + jsonString(f.value);
                    object.insert(field, f.value);
                }
        objects << QLatin1Char('{') + members.join(QLatin1Char(',')) + QLatin1Char('}');
        if (gold)
            gold->append(object);
    }
    return QLatin1Char('[') + objects.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString listQuestion(const QStringList& fields)
{
    QStringList keys{QStringLiteral("name")};
    keys << fields;
    return phrases::question(
        QStringLiteral("List every person as JSON with the keys %1.").arg(phrases::joinAnd(keys)));
}

// The fact a sentence states, read back through factText's wording (nullopt for an
// access-code record or any other text).
std::optional<Fact> factOf(const QString& name, const QString& text)
{
    for (const QString& field : kFields) {
        const QString shape = factText(field, name, QStringLiteral("\x01"));
        const qsizetype at = shape.indexOf(QChar(1));
        const QString before = shape.left(at), after = shape.mid(at + 1);
        if (text.size() > before.size() + after.size() && text.startsWith(before) &&
            text.endsWith(after))
            return Fact{name, field,
                        text.mid(before.size(), text.size() - before.size() - after.size())};
    }
    return std::nullopt;
}
} // namespace

QString Text2JsonGenerator::description() const
{
    return QStringLiteral("extract every person with the asked fields from scattered "
                          "sentences into a JSON list; scored by the Text2JSON rule");
}

QStringList Text2JsonGenerator::variants() const
{
    return {QStringLiteral("fields2"), QStringLiteral("fields3"), QStringLiteral("fields4"),
            QStringLiteral("people2"), QStringLiteral("people1")};
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
    if (variant == QLatin1String("people1"))
        return QStringLiteral("one person, one or two of the fields city, job, colour, pet "
                              "asked (asked by name only, never drawn)");
    return {};
}

Sample Text2JsonGenerator::generateVariant(const Tokenizer& tokenizer, const QString& variant,
                                           const LengthRequest& length, Rng& rng) const
{
    ContextBuilder builder(tokenizer, rng);
    NameDrawer names(rng);
    const bool few = variant.startsWith(QLatin1String("people"));
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
        variant == QLatin1String("people1") ? 1
        : few                               ? rng.range(1, 2)
            : std::clamp(int(kFactShare * length.target / (factTokens * (fieldCount + 1))), 2,
                         kMaxPeople);

    std::vector<Fact> facts;
    for (int p = 0; p < people; ++p) {
        const QString name = names.fresh();
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
    QJsonArray gold;
    Sample sample;
    sample.context = builder.build(length.target, length.minTokens, length.maxTokens, sample.spans);
    sample.question = listQuestion(asked);
    sample.answer = listAnswer(mentioned, facts, asked, &gold);
    sample.meta.insert(QStringLiteral("fields"), QJsonArray::fromStringList(asked));
    sample.meta.insert(QStringLiteral("objects"), gold);
    return sample;
}

std::vector<FollowUp> Text2JsonGenerator::followUps(const Sample& sample) const
{
    // Spans are labelled "<name>.<field>" (code records "<name>.code"); the people in
    // order of first mention of any of theirs, the facts read back from the sentences.
    std::vector<const Span*> spans;
    for (const Span& span : sample.spans)
        if (span.field == SpanField::Context && span.label.contains(QLatin1Char('.')))
            spans.push_back(&span);
    std::sort(spans.begin(), spans.end(),
              [](const Span* a, const Span* b) { return a->begin < b->begin; });
    QStringList people, asked, unasked;
    std::vector<Fact> facts;
    for (const Span* span : spans) {
        const QString name = span->label.section(QLatin1Char('.'), 0, -2);
        if (!people.contains(name))
            people << name;
        if (const std::optional<Fact> fact = factOf(name, sample.spanText(*span))) {
            facts.push_back(*fact);
            (span->kind == SpanKind::Evidence ? asked : unasked) << fact->field;
        }
    }
    // Each field the context states but the sample does not ask, one at a time: its values
    // appear in no earlier answer of the sequence, so a follow-up is a lookup in the
    // context, never a copy of the answer before it. (Every other set of fields, asked
    // fields again included, let it copy: after 300 training steps of that, 21 of 32 of
    // the bundled model's people2 answers named a person twice; 8 of 32 after the same
    // stage without text2json follow-ups.)
    std::vector<FollowUp> result;
    for (const QString& field : kFields)
        if (unasked.contains(field) && !asked.contains(field))
            result.push_back({listQuestion({field}), listAnswer(people, facts, {field})});
    return result;
}

} // namespace kvl
