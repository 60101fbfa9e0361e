#include "model/cachingallocator.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <algorithm>
#include <deque>
#include <list>
#include <malloc.h>
#include <map>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <unordered_map>

namespace kvl {

namespace {

// Large blocks are mapped directly, so an evicted block really goes back to the system,
// and glibc's heap, left to the small blocks, does not grow and shrink under them.
// Blocks of 2 MiB and more ask for transparent huge pages (the machine's THP mode is
// usually "madvise"): a fault then brings 512 pages at once, and GEMM operands need
// fewer TLB entries.
void* mapBlock(size_t size)
{
    void* data = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED)
        throw std::bad_alloc();
    if (size >= (size_t(2) << 20))
        madvise(data, size, MADV_HUGEPAGE);
    return data;
}

// A sixteenth of the machine's memory, between 512 MiB and 4 GiB: room for one layer's
// temporaries of a long prefill (the 0.5B shape at 4,096 tokens frees about 600 MiB of
// large blocks per layer) without holding much the process does not use.
int64_t defaultCacheLimit()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    const int64_t memory = pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : int64_t(8) << 30;
    return std::clamp<int64_t>(memory / 16, int64_t(512) << 20, int64_t(4) << 30);
}

class CachingCpuAllocator final : public c10::Allocator
{
  public:
    explicit CachingCpuAllocator(c10::Allocator* fallback)
        : m_fallback(fallback), m_limit(defaultCacheLimit())
    {}

    c10::DataPtr allocate(size_t n) const override
    {
        if (int64_t(n) < kCachingMinBytes)
            return m_fallback->allocate(n);
        return const_cast<CachingCpuAllocator*>(this)->allocateLarge(
            size_t(cachingSizeClass(int64_t(n))));
    }

    c10::DeleterFnPtr raw_deleter() const override { return &release; }

    CachingAllocatorStats stats()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        CachingAllocatorStats s = m_stats;
        s.cacheLimitBytes = m_limit;
        return s;
    }

    void setLimit(int64_t bytes)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_limit = std::max<int64_t>(0, bytes);
        trim();
    }

    static CachingCpuAllocator* instance;

  private:
    struct Cached
    {
        void* data;
        size_t size;
    };

    c10::DataPtr allocateLarge(size_t size)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        void* data = nullptr;
        const auto bucket = m_free.find(size);
        if (bucket != m_free.end() && !bucket->second.empty()) {
            // The most recently freed block of the class: the likeliest still in cache.
            const auto entry = bucket->second.back();
            bucket->second.pop_back();
            data = entry->data;
            m_lru.erase(entry);
            m_stats.cachedBytes -= int64_t(size);
            ++m_stats.hits;
        } else {
            data = mapBlock(size);
            ++m_stats.misses;
            m_stats.bytesFromSystem += int64_t(size);
        }
        m_live.emplace(data, size);
        m_stats.liveBytes += int64_t(size);
        m_stats.peakBytes = std::max(m_stats.peakBytes, m_stats.liveBytes + m_stats.cachedBytes);
        return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
    }

    // Unmaps the least recently freed blocks until the cache is within its limit. Each
    // class's deque is in freeing order (hits take from its back), so the oldest block
    // overall is the front of its class.
    void trim()
    {
        while (m_stats.cachedBytes > m_limit && !m_lru.empty()) {
            const Cached oldest = m_lru.front();
            auto bucket = m_free.find(oldest.size);
            bucket->second.pop_front();
            if (bucket->second.empty())
                m_free.erase(bucket);
            m_lru.pop_front();
            munmap(oldest.data, oldest.size);
            m_stats.cachedBytes -= int64_t(oldest.size);
        }
    }

    static void release(void* data)
    {
        CachingCpuAllocator* self = instance;
        std::lock_guard<std::mutex> lock(self->m_mutex);
        const auto live = self->m_live.find(data);
        if (live == self->m_live.end()) // not a block of ours: cannot happen
            return;
        const size_t size = live->second;
        self->m_live.erase(live);
        self->m_stats.liveBytes -= int64_t(size);
        self->m_lru.push_back({data, size});
        self->m_free[size].push_back(std::prev(self->m_lru.end()));
        self->m_stats.cachedBytes += int64_t(size);
        self->trim();
    }

    c10::Allocator* m_fallback;
    int64_t m_limit;
    std::mutex m_mutex;
    std::list<Cached> m_lru; // free blocks, least recently freed first
    std::map<size_t, std::deque<std::list<Cached>::iterator>> m_free; // by size class
    std::unordered_map<void*, size_t> m_live;
    CachingAllocatorStats m_stats;
};

CachingCpuAllocator* CachingCpuAllocator::instance = nullptr;

} // namespace

int64_t cachingSizeClass(int64_t n)
{
    if (n <= 0)
        return 0;
    int64_t power = 1;
    while (power * 2 <= n)
        power *= 2;
    const int64_t step = std::max<int64_t>(1, power / 8);
    return (n + step - 1) / step * step;
}

void installCachingCpuAllocator()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // The small blocks stay with glibc, served from its heap: setting any of these
        // turns off glibc's self-tuning, whose mmap threshold would otherwise stay at
        // 128 KiB and map every block between that and ours afresh. Its heap's top is
        // not trimmed after every burst of frees (each regrowth faults pages in again).
        mallopt(M_MMAP_THRESHOLD, int(kCachingMinBytes));
        mallopt(M_TRIM_THRESHOLD, 128 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
        // Never destroyed: tensors may be freed during static destruction.
        CachingCpuAllocator::instance = new CachingCpuAllocator(c10::GetDefaultCPUAllocator());
        c10::SetCPUAllocator(CachingCpuAllocator::instance, /*priority=*/1);
    });
}

bool cachingCpuAllocatorInstalled()
{
    return CachingCpuAllocator::instance != nullptr &&
           c10::GetCPUAllocator() == CachingCpuAllocator::instance;
}

CachingAllocatorStats cachingCpuAllocatorStats()
{
    return CachingCpuAllocator::instance ? CachingCpuAllocator::instance->stats()
                                         : CachingAllocatorStats{};
}

void setCachedCpuBytesLimit(int64_t bytes)
{
    if (CachingCpuAllocator::instance)
        CachingCpuAllocator::instance->setLimit(bytes);
}

} // namespace kvl
