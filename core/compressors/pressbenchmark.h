#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <vector>

namespace kvl {

class Transformer;

struct PressTiming
{
    QString spec;
    double seconds = 0.0;         // compress() at the ratio, best of the repeats
    double prefillFraction = 0.0; // seconds / prefill seconds
    QString error;                // set when the press could not run
};

struct PressBench
{
    int64_t tokens = 0;
    double ratio = 0.5;
    double prefillSeconds = 0.0; // best of the repeats, capturing what the presses need
    std::vector<PressTiming> presses;
    QJsonObject toJson() const;
};

// Times every press of `specs` (default: PressCatalog::exampleSpecs()) after one
// prefill of `tokens` random ids, as a fraction of that prefill (issue 3 target: <= 5%
// for score-based presses). Runs in inference mode.
PressBench benchPresses(const Transformer& model, int64_t tokens, double ratio = 0.5,
                        std::vector<QString> specs = {}, int repeats = 1);

} // namespace kvl
