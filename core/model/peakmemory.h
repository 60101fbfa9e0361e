#pragma once

namespace kvl {

// The most resident memory this process has held so far (getrusage ru_maxrss), in
// MiB: mapped file pages it touched count as well as its own allocations, so a
// memory-mapped model counts at its file size.
double peakRssMegabytes();

} // namespace kvl
