#pragma once

#include <QString>

namespace kvl {

// Sets libtorch's intra-op (and, when still possible, inter-op) thread count to the
// cores this process may run on; libtorch defaults to one thread on this platform.
// Safe to call more than once. Returns the thread count in use.
int initEngineThreads();

// The cores this process may run on (sched_getaffinity, else hardware_concurrency).
int availableCores();

// The shared library that provides sgemm_ in this process (the BLAS libtorch calls),
// e.g. "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"; empty if unknown.
QString blasLibraryPath();
// A short name for it: "OpenBLAS", "reference BLAS", "MKL" or the file name.
QString blasName();

} // namespace kvl
