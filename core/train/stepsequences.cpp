#include "train/stepsequences.h"

#include "tokenizer/tokenizer.h"

#include <algorithm>

namespace kvl {

RecallSequences recallSequencesFor(const Tokenizer& tokenizer, quint64 seed)
{
    const int bos = tokenizer.bosId().value_or(0);
    const std::vector<int> stops = tokenizer.stopIds();
    std::vector<int> ordinary, digits;
    for (int id = 0; id < tokenizer.vocabSize(); ++id) {
        const QString text = tokenizer.idToToken(id);
        if (text.size() == 1 && text.at(0) >= QLatin1Char('0') && text.at(0) <= QLatin1Char('9'))
            digits.push_back(id);
        const bool special =
            id == bos || std::find(stops.begin(), stops.end(), id) != stops.end() ||
            (text.startsWith(QLatin1String("<|")) && text.endsWith(QLatin1String("|>")));
        if (!special)
            ordinary.push_back(id);
    }
    return RecallSequences(ordinary, bos, seed, digits);
}

std::vector<TrainSequence> drawStepSequences(const TrainStage& stage,
                                             const RecallSequences& recall,
                                             const TaskSequenceFn& tasks, Rng& rng)
{
    std::vector<TrainSequence> batch;
    int64_t tokens = 0;
    double suiteTotal = 0;
    for (const auto& [name, share] : stage.suites)
        suiteTotal += share;
    while (true) {
        TrainSequence seq;
        if (stage.suites.empty() || !tasks || rng.chance(stage.recallShare)) {
            seq = stage.echoShare > 0.0 && rng.chance(stage.echoShare)
                      ? recall.makeEcho(stage.recall, rng)
                      : recall.make(stage.recall, rng);
        } else {
            double pick = double(rng.next() >> 11) * 0x1.0p-53 * suiteTotal;
            QString suite = stage.suites.back().first;
            for (const auto& [name, share] : stage.suites) {
                if (pick < share) {
                    suite = name;
                    break;
                }
                pick -= share;
            }
            seq = tasks({suite, stage.minContextTokens, stage.maxContextTokens, stage.followUps},
                        rng);
        }
        tokens += int64_t(seq.ids.size());
        batch.push_back(std::move(seq));
        if (stage.batchSequences > 0 ? int(batch.size()) >= stage.batchSequences
                                     : tokens >= stage.tokensPerBatch)
            return batch;
    }
}

} // namespace kvl
