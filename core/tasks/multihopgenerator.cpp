#include "tasks/multihopgenerator.h"

#include "tasks/chainanswer.h"
#include "tasks/contextbuilder.h"
#include "tasks/lexicon.h"
#include "tasks/phrases.h"
#include "tasks/rng.h"

#include <QHash>
#include <QJsonArray>
#include <algorithm>

namespace kvl {
namespace {
constexpr double kLinkShare = 0.2; // share of the target length given to chain links

struct Chain
{
    QStringList variables; // variables[0] holds the value, each next one copies it
    int value = 0;
    bool asked = false;
};

QString linkText(const Chain& chain, int i)
{
    if (i == 0)
        return QStringLiteral("%1 = %2.").arg(chain.variables.at(0)).arg(chain.value);
    return QStringLiteral("%1 = %2.").arg(chain.variables.at(i), chain.variables.at(i - 1));
}

QString valueRequest(const QString& variable)
{
    return QStringLiteral("What is the value of %1?").arg(variable);
}

} // namespace

QString MultihopGenerator::description() const
{
    return QStringLiteral("variable tracking: follow a chain of assignments (Bravo = Alpha.) "
                          "to the number it started from; the answer writes the chain out "
                          "(Charlie = Bravo = Alpha = 4821), scored on the final number");
}

QStringList MultihopGenerator::variants() const
{
    return {QStringLiteral("hops2"), QStringLiteral("hops3"), QStringLiteral("hops4")};
}

QString MultihopGenerator::variantDescription(const QString& variant) const
{
    if (variant.startsWith(QLatin1String("hops")))
        return QStringLiteral("the asked chain has %1 copies after the value, among "
                              "distractor chains")
            .arg(variant.mid(4));
    return {};
}

Sample MultihopGenerator::generateVariant(const Tokenizer& tokenizer, const QString& variant,
                                          const LengthRequest& length, Rng& rng) const
{
    ContextBuilder builder(tokenizer, rng);
    const int hops = variant.mid(4).toInt();
    QStringList pool = lexicon::variables();
    std::vector<QString> shuffled(pool.begin(), pool.end());
    rng.shuffle(shuffled);

    const int linkTokens = std::max(1, builder.countTokens(QStringLiteral(" Alpha = Bravo.")));
    const int linkBudget = int(kLinkShare * length.target / linkTokens);

    std::vector<Chain> chains;
    size_t next = 0;
    auto takeChain = [&](int links, bool asked) {
        Chain chain;
        chain.asked = asked;
        for (int i = 0; i <= links; ++i)
            chain.variables << shuffled[next++];
        chains.push_back(chain);
    };
    takeChain(hops, true);
    // At least one distractor chain; more while the budget and the 26 names last.
    int used = hops + 1;
    do {
        const int links = rng.range(1, 4);
        if (next + size_t(links) + 1 > shuffled.size())
            break;
        takeChain(links, false);
        used += links + 1;
    } while (used < linkBudget);

    const QList<int> values = phrases::distinctCodes(rng, int(chains.size()));
    for (size_t c = 0; c < chains.size(); ++c)
        chains[c].value = values.at(qsizetype(c));

    // Interleave the chains, keeping each chain's links in order: draw the next link
    // from a chain chosen with probability proportional to the links it has left.
    std::vector<int> position(chains.size(), 0);
    int remaining = used;
    while (remaining > 0) {
        int draw = rng.below(remaining);
        size_t c = 0;
        for (; c < chains.size(); ++c) {
            const int left = int(chains[c].variables.size()) - position[c];
            if (draw < left)
                break;
            draw -= left;
        }
        const Chain& chain = chains[c];
        const int i = position[c]++;
        builder.addBody(Piece::whole(linkText(chain, i),
                                     chain.asked ? SpanKind::Evidence : SpanKind::Distractor,
                                     chain.variables.at(i)));
        --remaining;
    }

    const Chain& asked = chains.front();
    Sample sample;
    sample.context = builder.build(length.target, length.minTokens, length.maxTokens, sample.spans);
    sample.question = phrases::question(valueRequest(asked.variables.last()));
    QStringList walk(asked.variables.rbegin(), asked.variables.rend());
    walk << QString::number(asked.value);
    sample.answer = chainAnswer(walk);
    sample.meta.insert(QStringLiteral("chain"), QJsonArray::fromStringList(asked.variables));
    sample.meta.insert(QStringLiteral("value"), QString::number(asked.value));
    return sample;
}

std::vector<FollowUp> MultihopGenerator::followUps(const Sample& sample) const
{
    // Each link span is labelled with the variable it assigns and reads "<var> = <rhs>.";
    // every variable is asked, answered by the chain from it to its number (any hop count).
    QStringList variables;
    QHash<QString, QString> assigned;
    for (const Span& span : sample.spans) {
        if (span.field != SpanField::Context || span.label.isEmpty())
            continue;
        const QString text = sample.spanText(span);
        const qsizetype eq = text.indexOf(QLatin1String(" = "));
        if (eq < 0 || !text.endsWith(QLatin1Char('.')) || assigned.contains(span.label))
            continue;
        variables << span.label;
        assigned.insert(span.label, text.mid(eq + 3, text.size() - eq - 4));
    }
    std::vector<FollowUp> result;
    for (const QString& variable : variables) {
        QStringList walk{variable, assigned.value(variable)};
        for (int hop = 0; hop <= variables.size() && assigned.contains(walk.last()); ++hop)
            walk << assigned.value(walk.last());
        bool number = false;
        walk.last().toInt(&number);
        const QString question = phrases::question(valueRequest(variable));
        if (number && question != sample.question)
            result.push_back({question, chainAnswer(walk)});
    }
    return result;
}

} // namespace kvl
