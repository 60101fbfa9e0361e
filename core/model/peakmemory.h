#pragma once

namespace kvl {

// The most resident memory this process has held so far (getrusage ru_maxrss), in
// MiB: mapped file pages it touched count as well as its own allocations, so a
// memory-mapped model counts at its file size.
double peakRssMegabytes();

// Resident memory now (/proc/self/statm), in MiB; 0 where unreadable. Taken before a
// model loads, it is the process's own floor (libtorch, Qt, BLAS: ~160 MiB here) that
// a bound on what the weights cost leaves out.
double currentRssMegabytes();

} // namespace kvl
