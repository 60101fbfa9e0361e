#pragma once

#include "diagnose/keptmask.h"
#include "store/runrecords.h"

#include <ATen/core/Tensor.h>

namespace kvl {

struct AnswerRun;
struct PreparedSample;

// The pieces of a result row that come straight from an answer and a kept mask.

// Kept mask bool [layers, kv_heads, T] as the diagnostics index it.
KeptMask keptMaskOf(const at::Tensor& kept);

// answer, correct, score, leakage, compliance and Text2JSON score (by suite), and the
// decoding figures in `extra`.
void fillAnswerFields(ResultRecord& row, const AnswerRun& run, const PreparedSample& sample);

// Keep rate of every span of the sample (SampleInfo::spans order).
std::vector<SpanKeep> spanKeepsOf(const KeptMask& mask, const PreparedSample& sample);

// GER (over the evidence tokens, when a mask is given and the sample has evidence) and
// head consensus (when the attention summary is non-empty) per layer.
std::vector<LayerStat> layerStatsOf(const KeptMask* mask, const AttentionSummary& attention,
                                    const PreparedSample& sample);

} // namespace kvl
