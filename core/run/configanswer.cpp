// ConfigAnswer's default: a prefill-time press, and the choice of kind.
#include "run/configanswer.h"

#include "compressors/decodingpress.h"
#include "compressors/offloadpress.h"
#include "model/answerdecoder.h"
#include "run/configanswerkinds.h"
#include "run/resultrows.h"
#include "store/runrecords.h"

#include <QElapsedTimer>

namespace kvl {

std::unique_ptr<ConfigAnswer> ConfigAnswer::create(const SweepConfig& config)
{
    if (const auto* press = dynamic_cast<const DecodingPress*>(config.press.get()))
        return std::make_unique<DecodeTimeAnswer>(config, *press);
    if (const auto* press = dynamic_cast<const OffloadPress*>(config.press.get()))
        return std::make_unique<OffloadedAnswer>(config, *press);
    return std::unique_ptr<ConfigAnswer>(new ConfigAnswer(config));
}

ConfigAnswer::~ConfigAnswer() = default;

void ConfigAnswer::compress(const CompressionInput& input)
{
    result = m_config.press->compress(input, m_config.ratio);
    edit = result.edit();
}

const CacheEdit* ConfigAnswer::beginAnswer(const SamplePass& pass)
{
    const ContextCache& context = result.context(pass.prefill);
    if (&context == &pass.prefill)
        return &edit; // a mask over the prefill: answers in the shared batch
    // A rewritten context (quantized, merged, re-rotated) answers alone.
    answer = std::move(beginAnswers(pass.model, pass.sample, context, {&edit}, pass.settings).front());
    decodeTogether(pass.model, context, {{&edit, &answer}}, pass.generate);
    return nullptr;
}

void ConfigAnswer::decodeAlone(const SamplePass&)
{
}

KeptMask ConfigAnswer::keptMask(const PreparedSample&) const
{
    return keptMaskOf(result.kept);
}

void ConfigAnswer::addToRow(ResultRecord&, const PreparedSample&, const KeptMask&,
                            const Tokenizer&, const Transformer&) const
{
}

void decodeTogether(const Transformer& model, const ContextCache& context,
                    const std::vector<std::pair<const CacheEdit*, PendingAnswer*>>& rows,
                    const GenerateOptions& options)
{
    std::vector<LockstepRow> lockstep;
    std::vector<AnswerRun*> decoding;
    for (const auto& [edit, pending] : rows)
        if (pending->decode.token >= 0) {
            lockstep.push_back({edit, &pending->decode, &pending->run.generation});
            decoding.push_back(&pending->run);
        }
    if (lockstep.empty())
        return;
    QElapsedTimer timer;
    timer.start();
    decodeLockstep(model, context, lockstep, options);
    const double share = double(timer.nsecsElapsed()) / 1e6 / double(lockstep.size());
    for (AnswerRun* run : decoding)
        run->answerMs += share;
}

} // namespace kvl
