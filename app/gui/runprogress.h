#pragma once

#include <QByteArray>

#include <limits>
#include <optional>

namespace kvl {

// One progress line of `kvlens-cli run`, printed on stdout per finished sample:
// {"done": 12, "total": 100, "elapsed_s": 30.5, "eta_s": 220.0, "accuracy": 0.75}
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
