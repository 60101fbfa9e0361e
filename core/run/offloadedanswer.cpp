// OffloadedAnswer: an offloading press's answer, every forward attending to what its
// index retrieves.
#include "cache/keptselection.h"
#include "compressors/offloadpress.h"
#include "run/configanswerkinds.h"
#include "run/decodetimerecords.h"
#include "run/preparedsample.h"
#include "store/runrecords.h"

#include <torch/types.h>

namespace kvl {

void OffloadedAnswer::compress(const CompressionInput& input)
{
    // One index for the row's result and its decoding (the SVD is the cost).
    checkRatio(config().ratio, m_press.spec());
    m_index = m_press.index(input, config().ratio);
    result = m_press.resultOf(input, *m_index);
    edit = result.edit();
}

const CacheEdit* OffloadedAnswer::beginAnswer(const SamplePass& pass)
{
    // The gold pass under retrieval: every question and answer row attends to what the
    // index retrieves for it, as decoding the gold answer would.
    const OffloadIndex* index = m_index.get();
    answer = beginRetrievedAnswer(
        pass.model, pass.sample, index->context(),
        [index](int layer, const at::Tensor& q) { return index->select(layer, q); },
        pass.settings);
    answer.decode.token = -1; // decoded by decodeAlone()
    return nullptr;
}

void OffloadedAnswer::decodeAlone(const SamplePass& pass)
{
    m_offloaded = generateOffloaded(pass.model, *m_index, pass.sample.ids.question, pass.generate);
    answer.run.generation = m_offloaded->generation;
}

void OffloadedAnswer::addToRow(ResultRecord& row, const PreparedSample& sample, const KeptMask&,
                               const Tokenizer& tokenizer, const Transformer&) const
{
    if (!m_offloaded)
        return;
    row.extra.insert(QStringLiteral("retrieval"),
                     retrievalJson(*m_offloaded, *m_index, sample, tokenizer));
    row.retrieval = m_offloaded->retrievalMap();
}

} // namespace kvl
