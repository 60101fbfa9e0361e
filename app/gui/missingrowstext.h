#pragma once

#include "store/runaggregates.h"

#include <QCoreApplication>
#include <QString>
#include <vector>

namespace kvl {

// The rows a sweep could not write (RunReader::missingRows), for the window's status
// line: a run whose curves stand on fewer samples than it holds says how many are missing
// and why, instead of leaving the researcher to find the `missing` table of the report.
struct MissingRowsText
{
    Q_DECLARE_TR_FUNCTIONS(kvl::MissingRowsText)

  public:
    QString summary; // " · 3 sample(s) skipped: <reason>; 2 row(s) failed under ...", or empty
    QString detail;  // one line per compressor x ratio x reason (the status bar's tool tip)

    // `cells` as RunReader::missingRows orders them (skipped samples first).
    static MissingRowsText of(const std::vector<MissingCell>& cells);
};

} // namespace kvl
