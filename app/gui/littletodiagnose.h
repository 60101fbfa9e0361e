#pragma once

#include <QString>

namespace kvl {

struct RunViewData;

// A run whose FullCache answers few samples right leaves little for the failure pages to
// diagnose: a C→W row needs FullCache right first. Below `threshold` (per suite, and over
// the run) this says so, with the counts ("FullCache right on 5 of 36 (niah): little to
// diagnose; are the contexts past the model's trained length?"); empty otherwise.
inline constexpr double kLowFullCacheAccuracy = 0.5;
QString littleToDiagnose(const RunViewData& data, double threshold = kLowFullCacheAccuracy);

} // namespace kvl
