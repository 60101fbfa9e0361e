#include "store/chainbreaks.h"

#include "store/runreader.h"
#include "tasks/chainanswer.h"

#include <QHash>

namespace kvl {

std::vector<ChainBreak> chainBreaks(RunReader& reader, const std::optional<QString>& compressor,
                                    const std::optional<double>& ratio)
{
    ResultFilter filter;
    filter.suite = QStringLiteral("multihop");
    filter.transition = Transition::CorrectToWrong;
    filter.compressor = compressor;
    filter.ratio = ratio;
    std::vector<StoredResult> rows = reader.results(filter);
    // The gold answers of the multihop samples only: reading every sample's context and
    // metadata cost a 60,000-row run seconds for a view most runs leave empty.
    const QHash<QString, QString> gold =
        rows.empty() ? QHash<QString, QString>() : reader.goldAnswers(*filter.suite);
    std::vector<ChainBreak> breaks;
    for (StoredResult& r : rows) {
        const QString g = gold.value(r.sampleKey);
        const int step = chainBreakStep(r.record.answer, g);
        if (step >= 0)
            breaks.push_back({std::move(r), chainLinks(g), step});
    }
    return breaks;
}

QString chainBreakCategory(int step, int links)
{
    if (step <= 0)
        return QStringLiteral("chain_start");
    if (step >= links)
        return QStringLiteral("chain_value");
    return QStringLiteral("chain_link_%1").arg(step);
}

} // namespace kvl
