#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {
class RunReader;
}

namespace kvl::cli {

// What `kvlens-cli demo` ran, for the first lines of its summary.
struct DemoFacts
{
    QString model;      // the model's name as the run records it, or its folder
    QStringList suites; // in the order the demo asks them
    int perSuite = 0;   // samples asked per suite
    QStringList presses;
    std::vector<double> ratios;
    double seconds = 0.0;
    qint64 skipped = 0;
    QString runFile;
};

// The demo's one-screen summary (well under 60 lines): what ran; accuracy against
// compression ratio per press, suites pooled, beside FullCache's; the three most common
// failure signatures of C->W rows with one example row each; the commands that go
// further. Every number comes from the run file; `kvlens-cli report` prints the rest.
QString demoSummaryText(RunReader& reader, const DemoFacts& facts);

} // namespace kvl::cli
