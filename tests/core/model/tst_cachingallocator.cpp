// The caching CPU allocator (issue 21, item 6: no per-layer system time): large blocks
// freed by one tensor serve the next of their size class, small ones go to libtorch's
// default allocator, the cap on cached bytes unmaps the least recently freed first,
// and every engine entry point installs it.
#include <ATen/Parallel.h>
#include <torch/types.h> // before Qt: its `slots` macro breaks torch's headers

#include "model/cachingallocator.h"
#include "model/engineinfo.h"

#include <QtTest>

using namespace kvl;

namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

at::Tensor floats(int64_t bytes)
{
    return at::empty({bytes / int64_t(sizeof(float))}, at::kFloat);
}

} // namespace

class TestCachingAllocator : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        initEngineThreads(); // what every engine entry point calls
        QVERIFY(cachingCpuAllocatorInstalled());
    }

    void sizeClasses_data()
    {
        QTest::addColumn<qint64>("request");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("a power of two") << qint64(kMiB) << qint64(kMiB);
        QTest::newRow("one byte over") << qint64(kMiB + 1) << qint64(kMiB + kMiB / 8);
        QTest::newRow("inside the class") << qint64(kMiB + kMiB / 8) << qint64(kMiB + kMiB / 8);
        QTest::newRow("top of the octave") << qint64(2 * kMiB - 1) << qint64(2 * kMiB);
        QTest::newRow("3 MiB + 1") << qint64(3 * kMiB + 1) << qint64(3 * kMiB + kMiB / 4);
        QTest::newRow("80 MiB (an MLP activation)") << qint64(80 * kMiB) << qint64(80 * kMiB);
    }
    void sizeClasses()
    {
        QFETCH(qint64, request);
        QFETCH(qint64, expected);
        QCOMPARE(cachingSizeClass(request), expected);
        QVERIFY(cachingSizeClass(request) - request < request / 8 + 1);
    }

    void aFreedBlockServesTheNextOfItsClass()
    {
        setCachedCpuBytesLimit(int64_t(512) * kMiB);
        const void* first = nullptr;
        {
            at::Tensor t = floats(4 * kMiB);
            t.fill_(3.0f);
            first = t.data_ptr();
        }
        const CachingAllocatorStats before = cachingCpuAllocatorStats();
        at::Tensor again = floats(4 * kMiB - 4096); // same class, slightly smaller
        const CachingAllocatorStats after = cachingCpuAllocatorStats();
        QCOMPARE(again.data_ptr(), first);
        QCOMPARE(after.hits, before.hits + 1);
        QCOMPARE(after.misses, before.misses);
        QCOMPARE(after.cachedBytes, before.cachedBytes - 4 * kMiB);
        // The block is usable memory of the right size.
        again.fill_(1.5f);
        QCOMPARE(again.sum().item<double>(), 1.5 * double(again.numel()));
        QCOMPARE(reinterpret_cast<uintptr_t>(again.data_ptr()) % 64, uintptr_t(0));
    }

    void smallTensorsAreNotCached()
    {
        const CachingAllocatorStats before = cachingCpuAllocatorStats();
        for (int i = 0; i < 10; ++i)
            floats(kCachingMinBytes / 2).fill_(1.0f);
        const CachingAllocatorStats after = cachingCpuAllocatorStats();
        QCOMPARE(after.hits, before.hits);
        QCOMPARE(after.misses, before.misses);
        QCOMPARE(after.cachedBytes, before.cachedBytes);
    }

    void theCapUnmapsTheLeastRecentlyFreed()
    {
        setCachedCpuBytesLimit(0); // start from an empty cache
        setCachedCpuBytesLimit(9 * kMiB);
        const void* b = nullptr;
        const void* c = nullptr;
        {
            at::Tensor ta = floats(4 * kMiB), tb = floats(4 * kMiB), tc = floats(4 * kMiB);
            b = tb.data_ptr();
            c = tc.data_ptr();
            ta.reset(); // freed first: the one the cap gives back
            tb.reset();
            tc.reset();
        }
        QCOMPARE(cachingCpuAllocatorStats().cachedBytes, 8 * kMiB); // b and c
        at::Tensor next = floats(4 * kMiB);
        QCOMPARE(next.data_ptr(), c); // the most recently freed is handed out first
        at::Tensor other = floats(4 * kMiB);
        QCOMPARE(other.data_ptr(), b);
        QCOMPARE(cachingCpuAllocatorStats().cachedBytes, 0);
        const int64_t misses = cachingCpuAllocatorStats().misses;
        at::Tensor third = floats(4 * kMiB); // a was unmapped: a fresh block
        QCOMPARE(cachingCpuAllocatorStats().misses, misses + 1);
    }

    void aZeroCapCachesNothing()
    {
        setCachedCpuBytesLimit(0);
        const CachingAllocatorStats before = cachingCpuAllocatorStats();
        floats(2 * kMiB).fill_(1.0f);
        floats(2 * kMiB).fill_(1.0f);
        const CachingAllocatorStats after = cachingCpuAllocatorStats();
        QCOMPARE(after.cachedBytes, 0);
        QCOMPARE(after.misses, before.misses + 2);
        QCOMPARE(after.hits, before.hits);
        setCachedCpuBytesLimit(int64_t(512) * kMiB);
    }

    void concurrentThreadsShareTheCache()
    {
        // libtorch's intra-op threads free and allocate too: the lists are locked.
        at::parallel_for(0, 64, 1, [](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                at::Tensor t = floats((1 + i % 3) * kMiB);
                t.fill_(float(i));
                QCOMPARE(t[0].item<float>(), float(i));
            }
        });
        const CachingAllocatorStats s = cachingCpuAllocatorStats();
        QVERIFY(s.cachedBytes <= s.cacheLimitBytes);
        QVERIFY(s.liveBytes >= 0);
    }
};

QTEST_GUILESS_MAIN(TestCachingAllocator)
#include "tst_cachingallocator.moc"
