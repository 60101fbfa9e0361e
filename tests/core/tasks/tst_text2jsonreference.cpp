// The Text2JSON score against an independent reference: tests/reference/
// text2json_reference.py transcribes the study's published evaluator (and, where it
// raises, the choices SCHEMA.md documents), parses with Python's own json.loads and
// writes ~2,000 seeded, constructed predictions with their scores; KVLens must agree
// exactly on every one.
#include "common/error.h"
#include "tasks/text2jsonscore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

using namespace kvl;

class TestText2jsonReference : public QObject
{
    Q_OBJECT

  private slots:
    void agreesWithPublishedEvaluator()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
            QSKIP("no /usr/bin/python3");
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/text2json_reference.py"),
                      dir.path(), QStringLiteral("--seed"), QStringLiteral("2604")});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        qInfo("reference cases by source: %s",
              python.readAllStandardOutput().trimmed().constData());

        QFile file(dir.filePath(QStringLiteral("cases.jsonl")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QMap<QString, int> bySource;
        int nonZeroPublished = 0;
        int mismatches = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (line.isEmpty())
                continue;
            const QJsonObject c = QJsonDocument::fromJson(line).object();
            QVERIFY(!c.isEmpty());
            const QString source = c.value(QStringLiteral("source")).toString();
            const QJsonArray gold = c.value(QStringLiteral("gold")).toArray();
            const QString prediction = c.value(QStringLiteral("prediction")).toString();
            ++bySource[source];
            QString got;
            QString want;
            if (c.value(QStringLiteral("expect")).toString() == QLatin1String("error")) {
                want = QStringLiteral("error");
                try {
                    got = QString::number(text2jsonScore(prediction, gold), 'g', 17);
                } catch (const Error&) {
                    got = want;
                }
            } else {
                // Hexadecimal floats: the reference's double, bit for bit.
                const double expected = std::strtod(
                    c.value(QStringLiteral("score_hex")).toString().toLatin1().constData(),
                    nullptr);
                want = QString::number(expected, 'g', 17);
                try {
                    const double score = text2jsonScore(prediction, gold);
                    got = score == expected ? want : QString::number(score, 'g', 17);
                } catch (const Error& e) {
                    got = QStringLiteral("error: ") + e.message();
                }
                if (source == QLatin1String("published") && expected > 0.0)
                    ++nonZeroPublished;
            }
            if (got != want && ++mismatches <= 10)
                qWarning("case %d (%s): KVLens %s, reference %s\n  gold %s\n  prediction %s",
                         c.value(QStringLiteral("id")).toInt(), qPrintable(source), qPrintable(got),
                         qPrintable(want),
                         QJsonDocument(gold).toJson(QJsonDocument::Compact).constData(),
                         QJsonDocument(QJsonArray{prediction})
                             .toJson(QJsonDocument::Compact)
                             .constData());
        }
        QCOMPARE(mismatches, 0);
        // The cases reach every branch the comparison is about.
        QVERIFY2(bySource.value(QStringLiteral("published")) >= 500, "too few published scores");
        QVERIFY2(nonZeroPublished >= 200, "too few non-zero published scores");
        QVERIFY2(bySource.value(QStringLiteral("kvlens (evaluator raises)")) >= 100,
                 "too few cases where the evaluator raises");
        QVERIFY2(bySource.value(QStringLiteral("error (evaluator skipped)")) >= 10,
                 "too few repeated gold names");
    }
};

QTEST_GUILESS_MAIN(TestText2jsonReference)
#include "tst_text2jsonreference.moc"
