#pragma once

#include <QByteArray>
#include <QLatin1String>

#include <limits>
#include <optional>

namespace kvl {

// The progress-line protocol of `kvlens-cli run`: one JSON object per finished sample on
// stdout, written by the sweep (core/run SweepProgress::toJson) and read by the desktop
// app (RunProgress::parse, then RunProcess). The keys are defined here once, torch-free and
// widget-free, so both ends and the test that ties them use the same names.
namespace progresskeys {
inline constexpr QLatin1String kDone("done");                  // samples finished (int)
inline constexpr QLatin1String kTotal("total");                // samples of the shard (int)
inline constexpr QLatin1String kElapsedS("elapsed_s");         // seconds since the start
inline constexpr QLatin1String kEtaS("eta_s");                 // seconds left, or null
inline constexpr QLatin1String kAccuracy("accuracy");          // compressed, else FullCache
inline constexpr QLatin1String kAccuracyFull("accuracy_full"); // FullCache rows, or null
inline constexpr QLatin1String kAccuracyCompressed("accuracy_compressed");
inline constexpr QLatin1String kSample("sample");   // key of the sample just finished
inline constexpr QLatin1String kSkipped("skipped"); // why it was skipped (only then)
} // namespace progresskeys

// One progress line as the app reads it:
// {"done": 12, "total": 100, "elapsed_s": 30.5, "eta_s": 220.0, "accuracy": 0.75, ...}
struct RunProgress
{
    int done = 0;
    int total = 0;
    double elapsedS = 0.0;
    double etaS = std::numeric_limits<double>::quiet_NaN();     // NaN: not known yet
    double accuracy = std::numeric_limits<double>::quiet_NaN(); // NaN: not reported

    // Parses one line; nullopt when it is not a JSON object with integer
    // "done" and "total" (other output of the child is passed on as log text).
    static std::optional<RunProgress> parse(const QByteArray& line);
};

} // namespace kvl
