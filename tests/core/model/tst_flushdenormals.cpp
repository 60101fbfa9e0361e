// flushDenormals: subnormal floats become zero on every intra-op thread, not only on
// the calling one (the mode is per thread).
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <ATen/Parallel.h>
#include <torch/types.h>

#include "model/engineinfo.h"

#include <QtTest>

using namespace kvl;

class TestFlushDenormals : public QObject
{
    Q_OBJECT

  private slots:
    void everyThreadFlushes()
    {
        at::set_num_threads(4); // several chunks even on a one-core machine
        // Large enough that ATen splits the multiplication over its threads.
        const torch::Tensor subnormal = torch::full({1 << 20}, 1e-39f);
        QVERIFY(subnormal[0].item<float>() > 0.0f); // representable before
        QCOMPARE((subnormal * 1.0f).count_nonzero().item<int64_t>(), int64_t(1 << 20));

        flushDenormals();
        // Every element read as zero: each thread's chunk was flushed.
        QCOMPARE((subnormal * 1.0f).count_nonzero().item<int64_t>(), int64_t(0));
        QCOMPARE((torch::full({1}, 1e-30f) * 1e-9f).item<float>(), 0.0f); // flushed result
        QCOMPARE((torch::full({1}, 1.0f) * 0.5f).item<float>(), 0.5f);    // normal floats as ever
    }
};

QTEST_GUILESS_MAIN(TestFlushDenormals)
#include "tst_flushdenormals.moc"
