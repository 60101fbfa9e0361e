// SafetensorsWriter -> SafetensorsFile round trips for every dtype, the exact bytes
// of a tiny file, and every malformed file the reader must reject with an error
// naming the file and the problem.
#include "checkpoint/safetensorsfile.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace kvl;

Q_DECLARE_METATYPE(kvl::DType)
Q_DECLARE_METATYPE(std::vector<int64_t>)

namespace {
// A safetensors file assembled by hand: 8-byte little-endian length, header, data.
QByteArray rawFile(const QByteArray& header, const QByteArray& data, qint64 lengthOverride = -1)
{
    quint64 length = lengthOverride >= 0 ? quint64(lengthOverride) : quint64(header.size());
    QByteArray out;
    for (int i = 0; i < 8; ++i, length >>= 8)
        out.append(char(length & 0xff));
    return out + header + data;
}

QByteArray patternBytes(int n, int seed)
{
    QByteArray bytes(n, '\0');
    for (int i = 0; i < n; ++i)
        bytes[i] = char((i * 37 + seed * 11 + 5) & 0xff);
    return bytes;
}

void writeRaw(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Runs `fn`, expecting a kvl::Error whose message contains every part.
template <typename Fn> void expectError(Fn fn, const QStringList& parts)
{
    try {
        fn();
        QFAIL("no kvl::Error thrown");
    } catch (const Error& e) {
        for (const QString& part : parts)
            QVERIFY2(e.message().contains(part),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(part, e.message())));
    }
}
} // namespace

class TestSafetensors : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void roundTripEveryDtype_data()
    {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("elementSize");
        QTest::addColumn<std::vector<int64_t>>("shape");
        QTest::newRow("F32") << DType::F32 << "F32" << 4 << std::vector<int64_t>{2, 3};
        QTest::newRow("F16") << DType::F16 << "F16" << 2 << std::vector<int64_t>{5};
        QTest::newRow("BF16") << DType::BF16 << "BF16" << 2 << std::vector<int64_t>{3, 1, 2};
        QTest::newRow("F64") << DType::F64 << "F64" << 8 << std::vector<int64_t>{3};
        QTest::newRow("I64") << DType::I64 << "I64" << 8 << std::vector<int64_t>{1, 2};
        QTest::newRow("I32") << DType::I32 << "I32" << 4 << std::vector<int64_t>{7};
        QTest::newRow("I16") << DType::I16 << "I16" << 2 << std::vector<int64_t>{3, 3};
        QTest::newRow("I8") << DType::I8 << "I8" << 1 << std::vector<int64_t>{5};
        QTest::newRow("U8") << DType::U8 << "U8" << 1 << std::vector<int64_t>{2, 2, 2};
        QTest::newRow("BOOL") << DType::Bool << "BOOL" << 1 << std::vector<int64_t>{3};
        QTest::newRow("scalar") << DType::F32 << "F32" << 4 << std::vector<int64_t>{};
        QTest::newRow("empty") << DType::I64 << "I64" << 8 << std::vector<int64_t>{0, 3};
    }
    void roundTripEveryDtype()
    {
        QFETCH(DType, dtype);
        QFETCH(QString, name);
        QFETCH(int, elementSize);
        QFETCH(std::vector<int64_t>, shape);
        QCOMPARE(dtypeSize(dtype), elementSize);
        QCOMPARE(dtypeName(dtype), name);
        QCOMPARE(dtypeFromName(name), std::optional<DType>(dtype));
        int64_t count = 1;
        for (int64_t d : shape)
            count *= d;
        // An odd-sized U8 tensor first, so the writer must reorder to keep alignment.
        const QByteArray odd = patternBytes(3, 9);
        const QByteArray bytes = patternBytes(int(count * elementSize), 1);
        SafetensorsWriter writer;
        writer.add(QStringLiteral("odd"), DType::U8, {3}, odd);
        writer.add(QStringLiteral("t"), dtype, shape, bytes);
        const QString path =
            m_dir.filePath(name + QStringLiteral("_%1.safetensors").arg(shape.size()));
        writer.write(path);

        const auto file = SafetensorsFile::open(path);
        QCOMPARE(file->path(), path);
        QVERIFY(file->contains(QStringLiteral("t")));
        QVERIFY(!file->contains(QStringLiteral("u")));
        const TensorView& t = file->tensor(QStringLiteral("t"));
        QCOMPARE(t.name, QStringLiteral("t"));
        QCOMPARE(t.file, path);
        QCOMPARE(t.dtype, dtype);
        QCOMPARE(t.shape, shape);
        QCOMPARE(t.byteSize, int64_t(bytes.size()));
        QCOMPARE(t.numel(), count);
        QCOMPARE(QByteArray(static_cast<const char*>(t.data), bytes.size()), bytes);
        QCOMPARE(reinterpret_cast<quintptr>(t.data) % quintptr(elementSize), quintptr(0));
        const TensorView& o = file->tensor(QStringLiteral("odd"));
        QCOMPARE(QByteArray(static_cast<const char*>(o.data), 3), odd);
        QVERIFY(file->metadata().isEmpty());

        // The header length is a multiple of 8 and the file is exactly header + data.
        QFile raw(path);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        const QByteArray all = raw.readAll();
        quint64 n = 0;
        for (int i = 7; i >= 0; --i)
            n = (n << 8) | uchar(all[i]);
        QCOMPARE(n % 8, quint64(0));
        QCOMPARE(quint64(all.size()), 8 + n + quint64(bytes.size() + odd.size()));
    }

    void exactBytesOfTinyFile()
    {
        SafetensorsWriter writer;
        writer.add(QStringLiteral("a"), DType::U8, {2}, QByteArray("\x01\x02", 2));
        const QString path = m_dir.filePath(QStringLiteral("tiny.safetensors"));
        writer.write(path);
        // By hand: the JSON header (53 bytes) padded with spaces to 56, then the data.
        const QByteArray header = R"({"a":{"data_offsets":[0,2],"dtype":"U8","shape":[2]}})";
        QCOMPARE(header.size(), 53);
        const QByteArray expected = QByteArray("\x38\0\0\0\0\0\0\0", 8) + header +
                                    QByteArray(3, ' ') + QByteArray("\x01\x02", 2);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), expected);
    }

    void metadataRoundTrip()
    {
        SafetensorsWriter writer;
        writer.add(QStringLiteral("x"), DType::F32, {1}, QByteArray(4, '\0'));
        writer.setMetadata({{QStringLiteral("format"), QStringLiteral("pt")}});
        const QString path = m_dir.filePath(QStringLiteral("meta.safetensors"));
        writer.write(path);
        const auto file = SafetensorsFile::open(path);
        QCOMPARE(file->metadata().value(QStringLiteral("format")).toString(), QStringLiteral("pt"));
        QCOMPARE(file->names(), QStringList{QStringLiteral("x")});
        expectError(
            [&] {
                writer.setMetadata({{QStringLiteral("n"), 3}});
            },
            {"'n'", "not a string"});
    }

    void writerRejectsBadInput()
    {
        SafetensorsWriter writer;
        expectError(
            [&] {
                writer.add(QStringLiteral("w"), DType::F32, {2, 2}, QByteArray(15, '\0'));
            },
            {"'w'", "[2, 2]", "16 bytes", "got 15"});
        writer.add(QStringLiteral("w"), DType::F32, {1}, QByteArray(4, '\0'));
        expectError([&] { writer.add(QStringLiteral("w"), DType::F32, {1}, QByteArray(4, '\0')); },
                    {"'w'", "twice"});
        expectError([&] { writer.add(QStringLiteral("__metadata__"), DType::U8, {0}, {}); },
                    {"invalid tensor name"});
        expectError([&] { writer.add(QStringLiteral("neg"), DType::U8, {-1}, {}); },
                    {"invalid shape"});
    }

    void writerUnwritablePathNamesFile()
    {
        SafetensorsWriter writer;
        writer.add(QStringLiteral("x"), DType::U8, {1}, QByteArray(1, '\0'));
        const QString missingDir = m_dir.filePath(QStringLiteral("no/such/dir/x.safetensors"));
        expectError([&] { writer.write(missingDir); }, {missingDir, "cannot open for writing"});
        const QString isDir = m_dir.path();
        expectError([&] { writer.write(isDir); }, {isDir});
        // A special file (here a FIFO) is refused rather than replaced by a rename.
        const QString fifo = m_dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        expectError([&] { writer.write(fifo); }, {fifo, "not a regular file"});
        QVERIFY(!QFileInfo(fifo).isFile());
    }

    void writerFullDiskNamesFile()
    {
        // A full disk, simulated with a file-size limit (writes past it fail like
        // ENOSPC): the error names the file and no partial file is left behind.
        SafetensorsWriter writer;
        writer.add(QStringLiteral("x"), DType::U8, {1 << 20}, QByteArray(1 << 20, '\0'));
        const QString path = m_dir.filePath(QStringLiteral("full.safetensors"));
        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 64 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        bool threw = false;
        QString message;
        try {
            writer.write(path);
        } catch (const Error& e) {
            threw = true;
            message = e.message();
        }
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);
        QVERIFY(threw);
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("full.safetensors*")}, QDir::Files),
                 QStringList());
    }

    void rejectsBadFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("expected");
        const QByteArray f32x2 = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        QTest::newRow("empty file")
            << QByteArray() << QStringList{"0 bytes", "shorter than the 8-byte"};
        QTest::newRow("shorter than 8 bytes")
            << QByteArray("\x10\0\0", 3) << QStringList{"3 bytes", "shorter than the 8-byte"};
        QTest::newRow("header length beyond file")
            << rawFile(f32x2, QByteArray(8, '\0'), 1000)
            << QStringList{"header length 1000", "beyond the file size"};
        QTest::newRow("absurd header length")
            << rawFile(f32x2, QByteArray(8, '\0'), qint64(1) << 62)
            << QStringList{"header length 4611686018427387904", "beyond the file size"};
        QTest::newRow("malformed json") << rawFile(R"({"w":{"dtype":"F32",)", {})
                                        << QStringList{"malformed safetensors header JSON"};
        QTest::newRow("json not an object")
            << rawFile("[1, 2]", {}) << QStringList{"malformed safetensors header", "JSON object"};
        QTest::newRow("unknown dtype")
            << rawFile(R"({"w":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}})",
                       QByteArray(2, '\0'))
            << QStringList{"tensor 'w'", "unknown dtype 'F8_E4M3'"};
        QTest::newRow("missing dtype")
            << rawFile(R"({"w":{"shape":[2],"data_offsets":[0,2]}})", QByteArray(2, '\0'))
            << QStringList{"tensor 'w'", "unknown dtype ''"};
        QTest::newRow("shape size mismatch")
            << rawFile(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})",
                       QByteArray(20, '\0'))
            << QStringList{"tensor 'w'", "[2, 3]", "24 bytes", "[0, 20]", "20 bytes"};
        QTest::newRow("truncated data") << rawFile(f32x2, QByteArray(6, '\0'))
                                        << QStringList{"tensor 'w'", "[0, 8]", "truncated"};
        QTest::newRow("overlapping ranges")
            << rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                       R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                       QByteArray(8, '\0'))
            << QStringList{"'a' [0, 8]", "'b' [4, 8]", "overlap"};
        QTest::newRow("begin after end")
            << rawFile(R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[4,2]}})",
                       QByteArray(4, '\0'))
            << QStringList{"tensor 'w'", "begin <= end"};
        QTest::newRow("negative dimension")
            << rawFile(R"({"w":{"dtype":"U8","shape":[-2],"data_offsets":[0,2]}})",
                       QByteArray(2, '\0'))
            << QStringList{"tensor 'w'", "non-negative integer"};
        QTest::newRow("fractional offset")
            << rawFile(R"({"w":{"dtype":"U8","shape":[2],"data_offsets":[0,2.5]}})",
                       QByteArray(3, '\0'))
            << QStringList{"tensor 'w'", "data_offsets"};
        QTest::newRow("overflowing shape")
            << rawFile(
                   R"({"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
                   QByteArray(8, '\0'))
            << QStringList{"tensor 'w'", "too large"};
        QTest::newRow("entry not an object")
            << rawFile(R"({"w":3})", {}) << QStringList{"tensor 'w'", "not an object"};
    }
    void rejectsBadFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        const QString path = m_dir.filePath(
            QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_') + ".safetensors");
        writeRaw(path, bytes);
        expectError([&] { SafetensorsFile::open(path); }, QStringList{path} + expected);
    }

    void truncatedWriterOutput()
    {
        // A real file cut short (an interrupted download): the last tensor reaches past
        // the end.
        SafetensorsWriter writer;
        writer.add(QStringLiteral("first"), DType::F32, {4}, QByteArray(16, '\1'));
        writer.add(QStringLiteral("second"), DType::F32, {4}, QByteArray(16, '\2'));
        const QString path = m_dir.filePath(QStringLiteral("cut.safetensors"));
        writer.write(path);
        QVERIFY(QFile::resize(path, QFileInfo(path).size() - 5));
        expectError([&] { SafetensorsFile::open(path); }, {path, "tensor 'second'", "truncated"});
    }

    void missingFileAndTensor()
    {
        const QString missing = m_dir.filePath(QStringLiteral("absent.safetensors"));
        expectError([&] { SafetensorsFile::open(missing); }, {missing, "no such file"});
        SafetensorsWriter writer;
        writer.add(QStringLiteral("x"), DType::U8, {1}, QByteArray(1, '\0'));
        const QString path = m_dir.filePath(QStringLiteral("one.safetensors"));
        writer.write(path);
        const auto file = SafetensorsFile::open(path);
        expectError([&] { file->tensor(QStringLiteral("y")); },
                    {path, "tensor 'y'", "no such tensor"});
    }

    void everyTruncationIsAnError()
    {
        // Cutting a valid file anywhere (an interrupted copy) must give kvl::Error,
        // whatever part the cut lands in: length, header or data.
        SafetensorsWriter writer;
        writer.add(QStringLiteral("a"), DType::F32, {3}, QByteArray(12, '\1'));
        writer.add(QStringLiteral("b"), DType::I8, {5}, QByteArray(5, '\2'));
        const QString whole = m_dir.filePath(QStringLiteral("whole.safetensors"));
        writer.write(whole);
        QFile f(whole);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const QString cut = m_dir.filePath(QStringLiteral("cut_prefix.safetensors"));
        for (int n = 0; n < bytes.size(); ++n) {
            writeRaw(cut, bytes.left(n));
            try {
                SafetensorsFile::open(cut);
                QFAIL(qPrintable(QStringLiteral("prefix of %1 bytes opened").arg(n)));
            } catch (const Error& e) {
                QVERIFY(e.message().startsWith(cut));
            }
        }
    }

    void corruptHeadersNeverCrash()
    {
        // Random byte changes in the length and header: each file either opens with
        // every tensor inside the data, or is rejected with kvl::Error.
        SafetensorsWriter writer;
        writer.add(QStringLiteral("weight"), DType::BF16, {2, 3}, QByteArray(12, '\3'));
        writer.add(QStringLiteral("bias"), DType::F32, {3}, QByteArray(12, '\4'));
        const QString good = m_dir.filePath(QStringLiteral("good.safetensors"));
        writer.write(good);
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const int headerEnd = bytes.size() - 24;
        const QString path = m_dir.filePath(QStringLiteral("fuzz.safetensors"));
        quint32 state = 12345;
        auto next = [&state] { return state = state * 1664525u + 1013904223u; };
        int rejected = 0;
        for (int round = 0; round < 300; ++round) {
            QByteArray mutated = bytes;
            for (int k = 0; k < 1 + int(next() % 3); ++k)
                mutated[int(next() % quint32(headerEnd))] = char(next() >> 24);
            writeRaw(path, mutated);
            try {
                const auto file = SafetensorsFile::open(path);
                for (const QString& name : file->names())
                    QVERIFY(file->tensor(name).byteSize <= 24);
            } catch (const Error& e) {
                QVERIFY(e.message().startsWith(path));
                ++rejected;
            }
        }
        QVERIFY(rejected > 150);
    }

    void emptyHeaderIsValid()
    {
        const QString path = m_dir.filePath(QStringLiteral("none.safetensors"));
        writeRaw(path, rawFile("{}      ", {}));
        const auto file = SafetensorsFile::open(path);
        QVERIFY(file->names().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
