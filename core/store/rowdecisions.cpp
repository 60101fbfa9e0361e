#include "store/rowdecisions.h"

#include "diagnose/signature.h"
#include "diagnose/transition.h"

namespace kvl {

void decideRow(ResultRecord& row, bool fullCacheCorrect)
{
    row.transition = transitionOf(fullCacheCorrect, row.correct);
    row.signature = *row.transition == Transition::CorrectToWrong
                        ? std::optional<Signature>(classifySignature(row.metrics))
                        : std::nullopt;
}

void decideRows(SampleRecord& record, const std::vector<ConfigRecord>& configs)
{
    auto isFull = [&](const QString& key) {
        for (const ConfigRecord& c : configs)
            if (c.key == key)
                return c.isFullCache();
        return false;
    };
    const ResultRecord* full = nullptr;
    for (const ResultRecord& r : record.results)
        if (isFull(r.configKey))
            full = &r;
    if (!full)
        return;
    const bool fullCorrect = full->correct;
    for (ResultRecord& r : record.results) {
        if (isFull(r.configKey))
            continue;
        if (!r.transition)
            r.transition = transitionOf(fullCorrect, r.correct);
        if (!r.signature && *r.transition == Transition::CorrectToWrong)
            r.signature = classifySignature(r.metrics);
    }
}

} // namespace kvl
