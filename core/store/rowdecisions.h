#pragma once

#include "store/runrecords.h"

namespace kvl {

// The two decisions about a compressed row: its transition against the sample's
// FullCache row (C→C, C→W, W→C, W→W) and, for a C→W row, its failure signature. The
// run makes them once, when it evaluates the row (core/run); the store only persists
// what a row carries. Demo data and hand-made runs, which write rows without them,
// call this first.
void decideRow(ResultRecord& row, bool fullCacheCorrect);

// The same for the compressed rows of a sample, against the sample's FullCache row (the
// row of a configuration `configs` marks FullCache), filling only what a row leaves
// empty (a hand-made row may name its signature); a sample without a FullCache row is
// left as it is.
void decideRows(SampleRecord& record, const std::vector<ConfigRecord>& configs);

} // namespace kvl
