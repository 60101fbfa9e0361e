#pragma once

#include "diagnose/attentionsummary.h"

namespace kvl {

// Stored attention bounded per sample (issue 21 item 5; docs/stored-attention.md).
// A row's question attention over a T-token context is (layers x kv-heads x T) floats;
// at 32k tokens on an 8B model that is 16 MiB a row before compression. The run file
// keeps it pooled to at most `maxColumns` columns per (layer, kv-head): column c holds
// the attention mass (the sum) of positions [c*w, min((c+1)*w, T)), with
// w = attentionColumnWidth(T, maxColumns). The stored contextLen is the column count;
// the sample's own context_len says how many positions they cover, so the width of a
// stored blob is attentionColumnWidth(sample context_len, stored columns) again, with
// no extra field in the file.

// Positions per column: 1 when T <= maxColumns or maxColumns <= 0, else ceil(T / maxColumns).
int attentionColumnWidth(int contextLen, int maxColumns);

// The columns a pooled summary of `contextLen` positions has at width `width`.
int pooledColumnCount(int contextLen, int width);

// Sums the positions of each column; width 1 returns the summary unchanged.
AttentionSummary poolAttention(const AttentionSummary& attention, int width);

// A stored summary back on the sample's positions, for views that index attention by
// token position: each position gets its column's mass divided by the positions the
// column covers (so every span's total is kept up to the columns' resolution). A summary
// already at contextLen positions is returned as is. Throws kvl::Error when the stored
// columns cannot be a pooling of contextLen positions.
AttentionSummary expandStoredAttention(const AttentionSummary& stored, int contextLen);

} // namespace kvl
