// UTF-8 validation of text inputs (--text-file, --context-file): the first bad byte is
// found and named, well-formed text of every sequence length passes.
#include "common/error.h"
#include "common/utf8text.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

class TestUtf8Text : public QObject
{
    Q_OBJECT
  private slots:
    void firstInvalid_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("offset");
        QTest::newRow("ascii") << QByteArray("plain text\n") << -1;
        // e-acute, euro sign, U+1F600: sequences of 2, 3 and 4 bytes.
        QTest::newRow("all lengths") << QByteArray("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") << -1;
        QTest::newRow("latin-1 byte") << QByteArray("caf\xe9!") << 3;
        QTest::newRow("stray continuation") << QByteArray("ab\x80") << 2;
        QTest::newRow("truncated at end") << QByteArray("x\xe2\x82") << 1;
        QTest::newRow("bad continuation") << QByteArray("\xe2(\xac") << 0;
        QTest::newRow("overlong slash") << QByteArray("a\xc0\xaf") << 1;
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << 0;
        QTest::newRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << 0;
        QTest::newRow("0xff") << QByteArray("ok\xff") << 2;
    }
    void firstInvalid()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, offset);
        QCOMPARE(kvl::firstInvalidUtf8(bytes), qsizetype(offset));
        // Qt's own decoder agrees on valid / invalid.
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString decoded = decoder.decode(bytes);
        QCOMPARE(decoder.hasError(), offset >= 0);
        Q_UNUSED(decoded);
    }

    void readNamesFileAndOffset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latin1.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("caf\xe9");
        f.close();
        try {
            kvl::readUtf8File(path);
            QFAIL("no error");
        } catch (const kvl::Error& e) {
            QVERIFY2(e.message().contains(path), qPrintable(e.message()));
            QVERIFY2(e.message().contains(QStringLiteral("invalid byte 0xe9 at offset 3")),
                     qPrintable(e.message()));
        }
        const QString good = dir.filePath(QStringLiteral("utf8.txt"));
        QFile g(good);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("caf\xc3\xa9");
        g.close();
        QCOMPARE(kvl::readUtf8File(good), QStringLiteral("caf\u00e9"));
    }
};

QTEST_GUILESS_MAIN(TestUtf8Text)
#include "tst_utf8text.moc"
