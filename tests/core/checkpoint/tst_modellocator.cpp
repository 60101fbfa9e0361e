// `--model bundled` resolution: environment override, an installed copy before the
// source-tree resources, and the error when the bundled model has not been built.
#include "checkpoint/modellocator.h"
#include "common/error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {
QString makeModelDir(const QString& dir)
{
    QDir().mkpath(dir);
    QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
    f.open(QIODevice::WriteOnly);
    f.write("{}");
    return dir;
}
} // namespace

class TestModelLocator : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

  private slots:
    void init() { qunsetenv("KVLENS_BUNDLED_MODEL"); }
    void cleanup() { qunsetenv("KVLENS_BUNDLED_MODEL"); }

    void plainPathsPassThrough()
    {
        QCOMPARE(resolveModelDir(QStringLiteral("/models/qwen"), m_tmp.path()),
                 QStringLiteral("/models/qwen"));
        QCOMPARE(resolveModelDir(QStringLiteral("rel/dir"), QString()), QStringLiteral("rel/dir"));
    }

    void resourcesDirectory()
    {
        const QString resources = m_tmp.filePath(QStringLiteral("resources"));
        const QString model = makeModelDir(resources + QStringLiteral("/models/kvlens-tiny"));
        QCOMPARE(resolveModelDir(QStringLiteral("bundled"), resources), model);
        QCOMPARE(bundledModelCandidates(resources, QString()), QStringList{model});
    }

    // An installed binary (PREFIX/bin) uses PREFIX/share/kvlens even when the source
    // tree it was built from is still on the machine.
    void installedCopyFirst()
    {
        const QString prefix = m_tmp.filePath(QStringLiteral("usr"));
        const QString resources = m_tmp.filePath(QStringLiteral("src/resources"));
        const QString source = makeModelDir(resources + QStringLiteral("/models/kvlens-tiny"));
        const QString installed =
            makeModelDir(prefix + QStringLiteral("/share/kvlens/models/kvlens-tiny"));
        QCOMPARE(bundledModelCandidates(resources, prefix + QStringLiteral("/bin")),
                 (QStringList{installed, source}));
        // From a build tree (no ../share/kvlens next to the binary): the source tree's.
        QCOMPARE(bundledModelCandidates(resources, m_tmp.filePath(QStringLiteral("build/app/cli")))
                     .last(),
                 source);
    }

    void environmentWins()
    {
        const QString resources = m_tmp.filePath(QStringLiteral("resources2"));
        makeModelDir(resources + QStringLiteral("/models/kvlens-tiny"));
        const QString other = makeModelDir(m_tmp.filePath(QStringLiteral("elsewhere")));
        qputenv("KVLENS_BUNDLED_MODEL", QFile::encodeName(other));
        QCOMPARE(resolveModelDir(QStringLiteral("bundled"), resources), other);
    }

    void environmentNotAModel()
    {
        const QString empty = m_tmp.filePath(QStringLiteral("empty"));
        QDir().mkpath(empty);
        qputenv("KVLENS_BUNDLED_MODEL", QFile::encodeName(empty));
        try {
            resolveModelDir(QStringLiteral("bundled"), QString());
            QFAIL("no kvl::Error");
        } catch (const Error& e) {
            QVERIFY(e.message().contains(empty));
            QVERIFY(e.message().contains(QStringLiteral("KVLENS_BUNDLED_MODEL")));
            QVERIFY(e.message().contains(QStringLiteral("no config.json")));
        }
    }

    void notBuiltYet()
    {
        const QString resources = m_tmp.filePath(QStringLiteral("no-model-here"));
        try {
            resolveModelDir(QStringLiteral("bundled"), resources);
            QFAIL("no kvl::Error");
        } catch (const Error& e) {
            QVERIFY(e.message().contains(QStringLiteral("bundled model is not built yet")));
            QVERIFY(e.message().contains(resources + QStringLiteral("/models/kvlens-tiny")));
            QVERIFY(e.message().contains(QStringLiteral("KVLENS_BUNDLED_MODEL")));
        }
    }
};

QTEST_GUILESS_MAIN(TestModelLocator)
#include "tst_modellocator.moc"
