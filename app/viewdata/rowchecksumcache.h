#pragma once

#include "store/runreader.h"

namespace kvl {

// The result rows' checksums of the file `reader` has open, verified once per state of
// the file on disk (size and modification time of the .kvl and of its WAL) rather than
// on every focus change: a 60,000-row run takes about as long to verify as to aggregate,
// and the app re-reads the run whenever the selection moves or a sweep commits a sample.
// Throws what RunReader::verifyRowChecksums() throws (kvl::Error naming the file, the
// sample and the configuration of the first damaged row); a damaged file is re-checked,
// and refused again, on every load. Thread-safe (the loader runs on worker threads).
RowChecksums verifiedRowChecksums(RunReader& reader);

// Forgets every verification (the view benchmark times a first open again).
void forgetVerifiedRowChecksums();

} // namespace kvl
