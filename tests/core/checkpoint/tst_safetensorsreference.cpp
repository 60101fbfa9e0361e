// The reader and writer against an independent implementation of the format: a
// numpy script (reference_safetensors.py) that writes and checks the bytes by hand.
#include "checkpoint/halfconvert.h"
#include "checkpoint/safetensorsfile.h"
#include "checkpoint/safetensorswriter.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <cmath>
#include <cstring>

using namespace kvl;

namespace {
const QString kPython = QStringLiteral("/usr/bin/python3");
const QString kScript =
    QStringLiteral(KVLENS_SOURCE_DIR "/tests/core/checkpoint/reference_safetensors.py");

template <typename T> std::vector<T> values(const TensorView& t)
{
    std::vector<T> out(size_t(t.byteSize) / sizeof(T));
    std::memcpy(out.data(), t.data, size_t(t.byteSize));
    return out;
}

QByteArray bytesOf(const void* data, size_t size)
{
    return QByteArray(static_cast<const char*>(data), qsizetype(size));
}
} // namespace

class TestSafetensorsReference : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString runPython(const QString& mode, const QString& file)
    {
        QProcess p;
        p.start(kPython, {kScript, mode, file});
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0)
            return QStringLiteral("FAILED: ") + QString::fromUtf8(p.readAllStandardError());
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

  private slots:
    void initTestCase()
    {
        if (!QFileInfo(kPython).isExecutable())
            QSKIP("no /usr/bin/python3");
        QProcess p;
        p.start(kPython, {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            QSKIP("python3 has no numpy");
        QVERIFY(m_dir.isValid());
    }

    void readerReadsPythonFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("ref.safetensors"));
        QCOMPARE(runPython(QStringLiteral("write"), path), QString());
        const auto file = SafetensorsFile::open(path);
        QCOMPARE(file->metadata().value(QStringLiteral("writer")).toString(),
                 QStringLiteral("numpy"));
        QCOMPARE(file->names().first(), QStringLiteral("u8")); // data-offset order

        const TensorView& f32 = file->tensor(QStringLiteral("f32"));
        QCOMPARE(f32.dtype, DType::F32);
        QCOMPARE(f32.shape, (std::vector<int64_t>{2, 3}));
        // The script leaves the data misaligned on purpose; views must still be aligned.
        QCOMPARE(reinterpret_cast<quintptr>(f32.data) % 4, quintptr(0));
        QCOMPARE(values<float>(f32),
                 (std::vector<float>{-1.25f, -0.75f, -0.25f, 0.25f, 0.75f, 1.25f}));
        QCOMPARE(values<double>(file->tensor(QStringLiteral("f64"))),
                 (std::vector<double>{1.0 / 3.0, -2.5e300, 1e-300}));
        QCOMPARE(values<int64_t>(file->tensor(QStringLiteral("i64"))),
                 (std::vector<int64_t>{-(int64_t(1) << 40) - 3, 0, (int64_t(1) << 62) + 1, -1}));
        QCOMPARE(values<int32_t>(file->tensor(QStringLiteral("i32"))),
                 (std::vector<int32_t>{INT32_MIN, INT32_MAX, 7, -7}));
        QCOMPARE(values<int16_t>(file->tensor(QStringLiteral("i16"))),
                 (std::vector<int16_t>{-32768, 32767, -2}));
        QCOMPARE(values<int8_t>(file->tensor(QStringLiteral("i8"))),
                 (std::vector<int8_t>{-128, 127, -1}));
        QCOMPARE(values<uint8_t>(file->tensor(QStringLiteral("u8"))),
                 (std::vector<uint8_t>{0, 255, 128}));
        QCOMPARE(file->tensor(QStringLiteral("u8")).shape, (std::vector<int64_t>{1, 3}));
        QCOMPARE(values<uint8_t>(file->tensor(QStringLiteral("bool"))),
                 (std::vector<uint8_t>{1, 0, 0, 1}));
        QCOMPARE(file->tensor(QStringLiteral("bool")).dtype, DType::Bool);
        const TensorView& scalar = file->tensor(QStringLiteral("scalar"));
        QVERIFY(scalar.shape.empty());
        QCOMPARE(scalar.numel(), int64_t(1));
        QCOMPARE(values<float>(scalar), std::vector<float>{3.5f});
        const TensorView& empty = file->tensor(QStringLiteral("empty"));
        QCOMPARE(empty.shape, (std::vector<int64_t>{0, 4}));
        QCOMPARE(empty.byteSize, int64_t(0));
        QCOMPARE(tensorToFloat(file->tensor(QStringLiteral("f16"))),
                 (std::vector<float>{1.0f, -2.0f, 65504.0f, std::ldexp(1.0f, -24)}));
        QCOMPARE(tensorToFloat(file->tensor(QStringLiteral("bf16"))),
                 (std::vector<float>{1.0f, -3.0f, 3.140625f}));
    }

    void halfWideningMatchesNumpyForEveryBitPattern()
    {
        const auto file = SafetensorsFile::open(m_dir.filePath(QStringLiteral("ref.safetensors")));
        for (const char* kind : {"f16_all", "bf16_all"}) {
            const QString name = QString::fromLatin1(kind);
            const std::vector<float> ours = tensorToFloat(file->tensor(name));
            const std::vector<float> numpy =
                values<float>(file->tensor(name + QStringLiteral("_as_f32")));
            QCOMPARE(ours.size(), size_t(65536));
            QCOMPARE(numpy.size(), size_t(65536));
            for (size_t i = 0; i < ours.size(); ++i) {
                if (std::isnan(numpy[i])) {
                    QVERIFY2(std::isnan(ours[i]), qPrintable(name + QString::number(i)));
                    continue;
                }
                // Bitwise: signed zeros and subnormals must come out exactly.
                QVERIFY2(std::bit_cast<uint32_t>(ours[i]) == std::bit_cast<uint32_t>(numpy[i]),
                         qPrintable(QStringLiteral("%1 pattern %2").arg(name).arg(i)));
            }
        }
    }

    void narrowingMatchesNumpyAndTorch()
    {
        const auto file = SafetensorsFile::open(m_dir.filePath(QStringLiteral("ref.safetensors")));
        const std::vector<float> x = values<float>(file->tensor(QStringLiteral("f32_random")));
        const std::vector<uint16_t> f16 =
            values<uint16_t>(file->tensor(QStringLiteral("f32_random_as_f16")));
        QCOMPARE(x.size(), f16.size());
        for (size_t i = 0; i < x.size(); ++i)
            QVERIFY2(floatToHalf(x[i]) == f16[i],
                     qPrintable(QStringLiteral("f16 of %1: %2 vs numpy %3")
                                    .arg(double(x[i]), 0, 'g', 9)
                                    .arg(floatToHalf(x[i]), 0, 16)
                                    .arg(f16[i], 0, 16)));
        if (!file->contains(QStringLiteral("f32_random_as_bf16")))
            QSKIP("python3 has no torch: bfloat16 narrowing not compared");
        const std::vector<uint16_t> bf16 =
            values<uint16_t>(file->tensor(QStringLiteral("f32_random_as_bf16")));
        for (size_t i = 0; i < x.size(); ++i)
            QVERIFY2(floatToBf16(x[i]) == bf16[i],
                     qPrintable(QStringLiteral("bf16 of %1").arg(double(x[i]), 0, 'g', 9)));
    }

    void writerMatchesPython()
    {
        SafetensorsWriter writer;
        const float f32[] = {-1.25f, -0.75f, -0.25f, 0.25f, 0.75f, 1.25f};
        const int64_t i64[] = {-(int64_t(1) << 40) - 3, (int64_t(1) << 62) + 1};
        const uint8_t u8[] = {0, 255, 128};
        const uint16_t f16[] = {0x3e00, 0xfbff}; // 1.5, -65504 by the IEEE half layout
        const uint16_t bf16[] = {0x3f80, 0xc040};
        const uint8_t boolean[] = {1, 0, 1};
        // Added smallest first so the writer has to order them to keep alignment.
        writer.add(QStringLiteral("u8"), DType::U8, {3}, bytesOf(u8, sizeof u8));
        writer.add(QStringLiteral("f16"), DType::F16, {2}, bytesOf(f16, sizeof f16));
        writer.add(QStringLiteral("bool"), DType::Bool, {3}, bytesOf(boolean, sizeof boolean));
        writer.addF32(QStringLiteral("f32"), {2, 3}, f32);
        writer.add(QStringLiteral("bf16"), DType::BF16, {2}, bytesOf(bf16, sizeof bf16));
        writer.add(QStringLiteral("i64"), DType::I64, {2}, bytesOf(i64, sizeof i64));
        writer.setMetadata({{QStringLiteral("origin"), QStringLiteral("kvlens")}});
        const QString path = m_dir.filePath(QStringLiteral("ours.safetensors"));
        writer.write(path);
        QCOMPARE(runPython(QStringLiteral("check"), path), QStringLiteral("OK"));
    }
};

QTEST_GUILESS_MAIN(TestSafetensorsReference)
#include "tst_safetensorsreference.moc"
