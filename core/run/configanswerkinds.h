#pragma once

#include "compressors/compresseddecoding.h"
#include "compressors/offloaddecoding.h"
#include "compressors/offloadindex.h"
#include "run/configanswer.h"

#include <memory>
#include <optional>

namespace kvl {

class DecodingPress;
class OffloadPress;

// A decode-time press (decodingpress.h): nothing joins the shared pass; the greedy
// answer is decoded from the question on with the press cutting the cache, and the gold
// answer replayed the same way for its metrics.
class DecodeTimeAnswer final : public ConfigAnswer
{
  public:
    DecodeTimeAnswer(const SweepConfig& config, const DecodingPress& press)
        : ConfigAnswer(config), m_press(press)
    {
    }
    const CacheEdit* beginAnswer(const SamplePass&) override { return nullptr; }
    bool decodesAlone() const override { return true; }
    void decodeAlone(const SamplePass& pass) override;
    KeptMask keptMask(const PreparedSample& sample) const override;
    void addToRow(ResultRecord& row, const PreparedSample& sample, const KeptMask& mask,
                  const Tokenizer& tokenizer, const Transformer& model) const override;

  private:
    const DecodingPress& m_press;
    std::optional<CompressedDecoding> m_decoding;
    int m_goldCompressions = 0; // compressions while the gold answer was replayed
};

// An offloading press (offloadpress.h): its index is built once from the prefill, for
// the row's result and for decoding; the gold pass and every decoding forward attend to
// what the index retrieves.
class OffloadedAnswer final : public ConfigAnswer
{
  public:
    OffloadedAnswer(const SweepConfig& config, const OffloadPress& press)
        : ConfigAnswer(config), m_press(press)
    {
    }
    void compress(const CompressionInput& input) override;
    const CacheEdit* beginAnswer(const SamplePass& pass) override;
    bool decodesAlone() const override { return true; }
    void decodeAlone(const SamplePass& pass) override;
    void addToRow(ResultRecord& row, const PreparedSample& sample, const KeptMask& mask,
                  const Tokenizer& tokenizer, const Transformer& model) const override;

  private:
    const OffloadPress& m_press;
    std::unique_ptr<OffloadIndex> m_index;
    std::optional<OffloadedDecoding> m_offloaded;
};

} // namespace kvl
