// Every file a run reads that a parser walks recursively, nested 100,000 deep: a clean
// kvl::Error naming the file, never a stack overflow. The spec, config.json,
// tokenizer.json and the safetensors header go through QJsonDocument (Qt refuses nesting
// past 1024 levels), tokenizer_config.json and chat messages through common/jsonloads
// (past kJsonLoadsMaxDepth), press specs through cache/pressspec (past kMaxPressNesting).
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "cache/pressspec.h"
#include "checkpoint/hfconfigreader.h"
#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "common/jsonloads.h"
#include "run/experimentspec.h"
#include "tokenizer/tokenizer.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>
#include <functional>

using namespace kvl;

namespace {

constexpr int kDepth = 100000;

QByteArray deepArray()
{
    return QByteArray(kDepth, '[') + QByteArray(kDepth, ']');
}

// The error `load` throws, or a failure naming what it returned.
QString errorOf(const std::function<void()>& load)
{
    try {
        load();
    } catch (const Error& e) {
        return e.message();
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestDeepInputs : public QObject
{
    Q_OBJECT
  private slots:
    void deepJsonFilesAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("spec") << "spec.json"
                              << "{\"model\": \"m\", \"samples\": " + deepArray() + "}";
        QTest::newRow("config.json") << "config.json"
                                     << "{\"architectures\": " + deepArray() + "}";
        QTest::newRow("tokenizer.json") << "tokenizer.json"
                                        << "{\"model\": " + deepArray() + "}";
        QTest::newRow("bare array") << "spec.json" << deepArray();
    }
    void deepJsonFilesAreRefused()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        writeFileAtomically(path, bytes);
        const QString got = errorOf([&] {
            if (file == QLatin1String("spec.json"))
                ExperimentSpec::fromFile(path);
            else if (file == QLatin1String("config.json"))
                loadModelConfig(path);
            else
                loadTokenizer(path);
        });
        QVERIFY2(got.startsWith(path), qPrintable(got));
    }

    void deepSafetensorsHeaderIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.safetensors"));
        const QByteArray header = "{\"__metadata__\": " + deepArray() + "}";
        QByteArray bytes(8, '\0');
        qToLittleEndian<quint64>(quint64(header.size()), bytes.data());
        writeFileAtomically(path, bytes + header);
        const QString got = errorOf([&] { SafetensorsFile::open(path); });
        QVERIFY2(got.startsWith(path) && got.contains(QLatin1String("header")), qPrintable(got));
    }

    void deepJsonLoadsIsRefused()
    {
        JsonLoadsError error;
        QVERIFY(!jsonLoads(QString::fromLatin1(deepArray()), &error));
        QVERIFY2(error.message.contains(QLatin1String("nested deeper")), qPrintable(error.message));
    }

    void deepPressSpecIsRefused()
    {
        const QString spec = QStringLiteral("adakv(").repeated(kDepth) + QStringLiteral("knorm") +
                             QStringLiteral(")").repeated(kDepth);
        const QString got = errorOf([&] { PressSpec::parse(spec); });
        QVERIFY2(got.contains(QStringLiteral("nested deeper than %1").arg(kMaxPressNesting)),
                 qPrintable(got.right(200)));
        QCOMPARE(PressSpec::parse(QStringLiteral("adakv(chunkkv(snapkv))")).toString(),
                 QStringLiteral("adakv(chunkkv(snapkv))"));
    }
};

QTEST_GUILESS_MAIN(TestDeepInputs)
#include "tst_deepinputs.moc"
