#pragma once

#include <cstdint>

namespace kvl {

// libtorch's CPU tensors come straight from malloc, and glibc serves every block above
// its mmap threshold (32 MiB at most) with a fresh mmap that munmap returns on free.
// A prefill allocates the same large temporaries in every layer (MLP activations,
// attention tiles), so each layer faulted the same gigabytes in again: at 4,096 tokens
// on the 0.5B shape, 28 s of a 56 s prefill was system time, 2 million page faults.
//
// The caching allocator keeps freed large blocks (>= 1 MiB) in lists by size class and
// hands them out again; size classes round up by at most an eighth. The free blocks it
// holds are capped (a sixteenth of the machine's memory, 512 MiB to 4 GiB): past the
// cap the least recently freed are unmapped, so blocks of sizes no longer asked for
// (an earlier, shorter prefill) do not stay. Small blocks go to libtorch's default
// allocator as before.

struct CachingAllocatorStats
{
    int64_t hits = 0;            // large requests served from the cache
    int64_t misses = 0;          // large requests that went to the system
    int64_t bytesFromSystem = 0; // bytes of those misses (page faults to come)
    int64_t cachedBytes = 0;     // free blocks held now
    int64_t liveBytes = 0;       // large blocks in use now
    int64_t peakBytes = 0;       // largest live + cached seen
    int64_t cacheLimitBytes = 0; // the cap on cachedBytes
};

// Installs the allocator as libtorch's CPU allocator (once; later calls do nothing).
// Called by initEngineThreads, so every engine entry point has it.
void installCachingCpuAllocator();
bool cachingCpuAllocatorInstalled();
CachingAllocatorStats cachingCpuAllocatorStats();
// Sets the cap on cached free bytes (0: cache nothing), unmapping what is over it.
void setCachedCpuBytesLimit(int64_t bytes);

// The size class of a large request of n bytes: n rounded up to the next multiple of
// an eighth of the largest power of two not above it (exposed for the tests).
int64_t cachingSizeClass(int64_t n);
// Requests below this many bytes are not cached.
constexpr int64_t kCachingMinBytes = int64_t(1) << 20;

} // namespace kvl
