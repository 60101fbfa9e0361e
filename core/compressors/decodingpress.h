#pragma once

#include "cache/press.h"
#include "cache/scorer.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace kvl {

// A press that also compresses while the answer is decoded (kvpress's DecodingPress
// family). At prefill it acts through compress() like any press (the prefill press of
// prefill_decoding, else it keeps the whole context, as kvpress's pipeline skips the
// prefill compression of a DecodingPress). During decoding the run's decode loop
// (compressors/compresseddecoding.h) counts the forwards after the context (the
// question, then every generated token fed back) and, every `interval()` of them or
// when one forward feeds at least the target, cuts every kv-head of every layer to
// targetSize() entries with the scorer, over everything still in the cache (context and
// generated tokens). Evicted entries leave the cache; the rest keep their positions.
class DecodingPress : public Press
{
  public:
    enum class Target
    {
        Fixed,          // `decoding`: target_size entries (0: int(T(1 - r)) of the context)
        FractionOfSeen, // `compression_ratio_decoding`: int(seen (1 - r)), at least 1
    };
    DecodingPress(std::unique_ptr<Scorer> scorer, Target target, int64_t targetSize, int interval,
                  int bufferSize, std::unique_ptr<Press> prefill, QString spec);

    QString spec() const override { return m_spec; }
    CompressionResult compress(const CompressionInput& input, double ratio) const override;
    int64_t queryWindow(int64_t length) const override;
    bool needsReceivedAttention() const override;
    bool needsAttentionInputs() const override;

    // Forwards between two compressions (kvpress compression_interval).
    int interval() const { return m_interval; }
    // Forwards whose queries are kept for scoring (kvpress hidden_states_buffer_size;
    // 0: the current forward only). The buffer empties at every compression.
    int bufferSize() const { return m_bufferSize; }
    // Entries every head keeps after a compression when `seen` positions (context +
    // tokens fed) are in the cache, for a context of `contextLength` and sweep ratio r.
    int64_t targetSize(int64_t seen, int64_t contextLength, double ratio) const;
    const Scorer& scorer() const { return *m_scorer; }
    // The prefill press of prefill_decoding, else null.
    const Press* prefillPress() const { return m_prefill.get(); }

    // Throws kvl::Error naming `spec` when `scorer` needs what decoding does not keep
    // (received attention, attention inputs) or more queries than a compression every
    // `interval` forwards with `buffer` buffered ones holds.
    static void checkDecodeScorer(const Scorer& scorer, const QString& spec, int interval,
                                  int buffer);
    // prefill_decoding's factory: this press's decoding rule after `prefill`.
    void setPrefill(std::unique_ptr<Press> prefill, QString spec);

    // CaM (campress.cpp, kvpress cam_press.py): at each compression the evicted values
    // are merged into the next `budget` kept entries (cammerge.h) instead of dropped
    // alone, and the interval fires only while the cache is over the target (its count
    // runs on until then). `seed` seeds the Bernoulli draws. Budget 0: plain eviction.
    void setMerging(int budget, int seed);
    int mergeBudget() const { return m_mergeBudget; }
    int mergeSeed() const { return m_mergeSeed; }

  private:
    std::unique_ptr<Scorer> m_scorer;
    Target m_target;
    int64_t m_targetSize;
    int m_interval;
    int m_bufferSize;
    std::unique_ptr<Press> m_prefill;
    QString m_spec;
    int m_mergeBudget = 0;
    int m_mergeSeed = 0;
};

// kvpress DecodingPress._find_target_compression_ratio: the ratio whose int(n(1 - r))
// is `target` for a cache of n entries, by its 20-step bisection (0 when n <= target);
// keptPerHead(n, ratio) is then the count kvpress keeps (the target, or the nearest the
// bisection reached).
double decodingRatioFor(int64_t length, int64_t target);

} // namespace kvl
