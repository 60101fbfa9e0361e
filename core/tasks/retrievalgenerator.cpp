#include "tasks/retrievalgenerator.h"

#include "tasks/contextbuilder.h"
#include "tasks/namedrawer.h"
#include "tasks/phrases.h"
#include "tasks/rng.h"

#include <QHash>
#include <QJsonArray>
#include <algorithm>

namespace kvl {
namespace {
// Share of the target length given to records; the rest is filler. With a ~2k BPE a
// record is ~10 tokens, so 2,048 tokens hold ~50 records.
constexpr double kRetrievalRecordShare = 0.25;
constexpr int kRetrievalMaxRecords = 150;

struct Record
{
    QString name;
    int code = 0;
    bool asked = false;
};

QString allCodesRequest(const QString& name)
{
    return QStringLiteral("What are all the access codes of %1?").arg(name);
}

QString codesOfRequest(const QStringList& names)
{
    return QStringLiteral("What are the access codes of %1?").arg(phrases::joinAnd(names));
}
} // namespace

QString RetrievalGenerator::description() const
{
    return QStringLiteral("key -> value lookup: access-code records among filler and "
                          "look-alike records; answer the code(s) of the asked name(s)");
}

QStringList RetrievalGenerator::variants() const
{
    return {QStringLiteral("single"), QStringLiteral("multikey"), QStringLiteral("multivalue"),
            QStringLiteral("multiquery")};
}

QString RetrievalGenerator::variantDescription(const QString& variant) const
{
    if (variant == QLatin1String("single"))
        return QStringLiteral("one needle and two near-miss records in filler");
    if (variant == QLatin1String("multikey"))
        return QStringLiteral("one asked record among many records with other and near-miss "
                              "names");
    if (variant == QLatin1String("multivalue"))
        return QStringLiteral(
            "the asked name has 2-4 codes (fewer in short contexts; other "
            "names 1-3); answer all, joined by ', ' (context order; scored in any order)");
    if (variant == QLatin1String("multiquery"))
        return QStringLiteral("2-4 names asked (fewer in short contexts); answer each name "
                              "with its code in the order asked ('Anna Berg is 4821, Tom "
                              "Eng is 431'; scored on the codes)");
    return {};
}

Sample RetrievalGenerator::generateVariant(const Tokenizer& tokenizer, const QString& variant,
                                           const LengthRequest& length, Rng& rng) const
{
    ContextBuilder builder(tokenizer, rng);
    NameDrawer names(rng);
    const int recordTokens =
        std::max(1, builder.countTokens(QStringLiteral(" ") +
                                        phrases::codeRecord(QStringLiteral("Anna Berg"), 4821)));
    const int budget = std::clamp(int(kRetrievalRecordShare * length.target / recordTokens), 1,
                                  kRetrievalMaxRecords);
    // Records that fit the longest allowed context (a margin for longer names): short
    // ranges ask fewer names or codes rather than fail.
    const int fit = length.maxTokens / (recordTokens + 2);

    std::vector<Record> records;
    QStringList asked;
    if (variant == QLatin1String("multiquery")) {
        const int queries = rng.range(2, std::clamp((fit - 2) / 2, 2, 4));
        for (int q = 0; q < queries; ++q) {
            asked << names.fresh();
            records.push_back({asked.last(), 0, true});
        }
        for (int q = 0; q < queries; ++q)
            records.push_back({names.nearMiss(asked.at(q)), 0, false});
    } else {
        asked << names.fresh();
        const int values =
            variant == QLatin1String("multivalue") ? rng.range(2, std::clamp(fit - 4, 2, 4)) : 1;
        for (int v = 0; v < values; ++v)
            records.push_back({asked.first(), 0, true});
        for (int m = 0; m < 2; ++m)
            records.push_back({names.nearMiss(asked.first()), 0, false});
    }
    if (variant != QLatin1String("single")) {
        // At least two records with unrelated names, more as the length allows. Under
        // multivalue the unrelated names have 1-3 codes too: that a name recurs must not
        // single out the asked one, only its spelling does (and each of them is a
        // listing question of its own for the follow-ups).
        const size_t wanted = size_t(std::max(budget, int(records.size()) + 2));
        while (records.size() < wanted) {
            const QString name = names.fresh();
            const int values = variant == QLatin1String("multivalue") ? rng.range(1, 3) : 1;
            for (int v = 0; v < values && records.size() < wanted; ++v)
                records.push_back({name, 0, false});
        }
    }

    const QList<int> codes = phrases::distinctCodes(rng, int(records.size()));
    for (size_t i = 0; i < records.size(); ++i)
        records[i].code = codes.at(qsizetype(i));
    rng.shuffle(records);

    QStringList answerParts; // the codes, in answer order
    QStringList namedParts;  // multiquery: "<name> is <code>" per asked name
    if (variant == QLatin1String("multiquery")) {
        for (const QString& name : asked)
            for (const Record& r : records)
                if (r.asked && r.name == name) {
                    answerParts << QString::number(r.code);
                    namedParts << phrases::namedCode(r.name, r.code);
                }
    } else {
        for (const Record& r : records) // context order
            if (r.asked)
                answerParts << QString::number(r.code);
    }
    for (const Record& r : records)
        builder.addBody(Piece::whole(phrases::codeRecord(r.name, r.code),
                                     r.asked ? SpanKind::Evidence : SpanKind::Distractor, r.name));

    Sample sample;
    sample.context = builder.build(length.target, length.minTokens, length.maxTokens, sample.spans);
    QString request;
    if (variant == QLatin1String("multiquery"))
        request = codesOfRequest(asked);
    else if (variant == QLatin1String("multivalue"))
        request = allCodesRequest(asked.first());
    else
        request = phrases::codeRequest(asked.first());
    sample.question = phrases::question(request);
    sample.answer = (namedParts.isEmpty() ? answerParts : namedParts).join(QStringLiteral(", "));
    sample.meta.insert(QStringLiteral("keys"), QJsonArray::fromStringList(asked));
    sample.meta.insert(QStringLiteral("values"), QJsonArray::fromStringList(answerParts));
    return sample;
}

std::vector<FollowUp> RetrievalGenerator::followUps(const Sample& sample) const
{
    // Each record span is labelled with its name (phrases::codeOfRecord reads its code);
    // a name with several records is asked for all its codes, in context order. Then
    // multiquery questions over names with one code each, asked out of context order:
    // every second pair reversed (b, a) and every third triple as (a, c, b).
    std::vector<Span> records;
    for (const Span& span : sample.spans)
        if (span.field == SpanField::Context && span.kind != SpanKind::Instruction &&
            !span.label.isEmpty())
            records.push_back(span);
    std::stable_sort(records.begin(), records.end(),
                     [](const Span& a, const Span& b) { return a.begin < b.begin; });
    QStringList names;
    QHash<QString, QStringList> codes;
    for (const Span& span : records) {
        const QString code = phrases::codeOfRecord(sample.spanText(span));
        if (code.isEmpty())
            continue;
        if (!codes.contains(span.label))
            names << span.label;
        codes[span.label] << code;
    }
    std::vector<FollowUp> result;
    auto add = [&](const QString& request, const QStringList& answers) {
        const QString question = phrases::question(request);
        if (question != sample.question)
            result.push_back({question, answers.join(QStringLiteral(", "))});
    };
    QStringList single; // names with one code, in context order
    for (const QString& name : names) {
        const QStringList& nameCodes = codes.value(name);
        add(nameCodes.size() > 1 ? allCodesRequest(name) : phrases::codeRequest(name), nameCodes);
        if (nameCodes.size() == 1)
            single << name;
    }
    auto addGroup = [&](const QStringList& group) {
        QStringList answers;
        for (const QString& name : group)
            answers << phrases::namedCode(name, codes.value(name).first().toInt());
        add(codesOfRequest(group), answers);
    };
    for (qsizetype i = 0; i + 1 < single.size(); i += 2)
        addGroup({single.at(i + 1), single.at(i)});
    for (qsizetype i = 0; i + 2 < single.size(); i += 3)
        addGroup({single.at(i), single.at(i + 2), single.at(i + 1)});
    return result;
}

} // namespace kvl
