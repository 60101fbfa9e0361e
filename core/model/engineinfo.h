#pragma once

#include <QString>

namespace kvl {

// Sets libtorch's intra-op (and, when still possible, inter-op) thread count to the
// cores this process may run on; libtorch defaults to one thread on this platform.
// Safe to call more than once. Returns the thread count in use.
int initEngineThreads();

// Subnormal floats read and written as zero (DAZ/FTZ) on the calling thread and on
// every intra-op thread (call after setting the thread count). Training drives AdamW's
// second moments of rarely seen tokens towards subnormals, where x86 float arithmetic is
// many times slower: the trainer ran 5,300 tokens/s without it, 7,270 with it, with the
// same losses.
void flushDenormals();

// The cores this process may run on (sched_getaffinity, else hardware_concurrency).
int availableCores();

// The shared library that provides sgemm_ in this process (the BLAS libtorch calls),
// e.g. "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"; empty if unknown.
QString blasLibraryPath();
// A short name for it: "OpenBLAS", "reference BLAS", "MKL" or the file name.
QString blasName();

} // namespace kvl
