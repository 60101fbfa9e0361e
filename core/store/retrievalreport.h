#pragma once

#include "store/runreport.h"

#include <vector>

namespace kvl {

class RunReader;

// The report's offloading tables (issue 19), from the rows whose extra_json carries a
// "retrieval" object (RunReader::retrievalRows):
//  - "retrieval": per suite x compressor x ratio, the mean task score next to FullCache's
//    on the same samples, the mean evidence recall (rows that have evidence), the share
//    of the context attended, the bytes fetched per step and the landmark bytes;
//  - "retrieval_fields": per suite x compressor x ratio x answer field (text2json's
//    field_recall: the step that wrote the field's value against that field's evidence),
//    the mean recall over the answer members.
// Both tables are empty for a run without offloaded rows.
std::vector<ReportTable> retrievalReportTables(RunReader& reader);

} // namespace kvl
