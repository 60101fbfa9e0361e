#pragma once

#include "store/runreport.h"

#include <QString>

namespace kvl {
class RunReader;
}

namespace kvl::cli {

// A run's report on stdout, as `report` prints it and `demo` after its sweep.

// Throws kvl::Error unless `format` is text, csv or json.
void checkReportFormat(const QString& format);
// The report in `format` (checked): JSON as one line, CSV or aligned text as is.
void printRunReport(RunReader& reader, const QString& format,
                    EmptyTables empty = EmptyTables::Omit);

} // namespace kvl::cli
