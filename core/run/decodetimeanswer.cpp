// DecodeTimeAnswer: a decode-time press's answer, decoded and replayed under its own
// compression schedule.
#include "cache/keptselection.h"
#include "compressors/decodingpress.h"
#include "model/transformer.h"
#include "run/configanswerkinds.h"
#include "run/decodetimerecords.h"
#include "run/preparedsample.h"
#include "run/resultrows.h"
#include "store/runrecords.h"

#include <torch/types.h>

#include <cmath>

namespace kvl {

void DecodeTimeAnswer::decodeAlone(const SamplePass& pass)
{
    const ContextCache& context = result.context(pass.prefill);
    const double ratio = config().ratio;
    m_decoding = generateCompressed(pass.model, context, result.kept, m_press, ratio,
                                    pass.sample.ids.question, pass.generate);
    answer.run.generation = m_decoding->generation;
    // The gold metrics under the caches the press makes while the gold answer is
    // written, not the prefill's.
    CompressedGoldPass gold =
        scoreCompressed(pass.model, context, result.kept, m_press, ratio, pass.sample.ids.question,
                        pass.sample.ids.answer, goldScoreOptions(pass.settings));
    setGoldPass(std::move(gold.gold), answer.run);
    m_goldCompressions = int(gold.steps.size());
}

KeptMask DecodeTimeAnswer::keptMask(const PreparedSample& sample) const
{
    // The context entries still held when the answer ended.
    if (!m_decoding)
        return ConfigAnswer::keptMask(sample);
    return keptMaskOf(m_decoding->finalKept.narrow(2, 0, int64_t(sample.ids.context.size())));
}

void DecodeTimeAnswer::addToRow(ResultRecord& row, const PreparedSample& sample,
                                const KeptMask& mask, const Tokenizer&,
                                const Transformer& model) const
{
    if (!m_decoding)
        return;
    QJsonObject decoding =
        decodingJson(*m_decoding, m_press, sample, result.kept, answer.run.answerMs);
    // The gold metrics (delta NLL, KL, top-k, attention) come from a replay of the gold
    // answer under the press's schedule; how often it compressed there.
    decoding.insert(QStringLiteral("gold_compressions"), m_goldCompressions);
    row.extra.insert(QStringLiteral("decoding"), decoding);
    row.extra.insert(QStringLiteral("kept_fraction"),
                     double(mask.keptCount()) / double(std::max<size_t>(1, mask.kept.size())));
    // Context entries only, as every other row counts them (final_entries and
    // peak_entries in `decoding` count the generated ones too).
    row.kvBytes = qint64(std::llround(
        keptKvBytes(m_decoding->finalKept.narrow(2, 0, int64_t(sample.ids.context.size())),
                    model.config().headDim)));
}

} // namespace kvl
