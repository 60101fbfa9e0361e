#pragma once
// Runs the kvlens-cli under test (KVLENS_CLI, set by CMake) as a user would and keeps
// its exit code, stdout and stderr; shared by the CLI test suites.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace clitest {

struct Result
{
    int code = -1;
    QByteArray out;
    QString err;

    // Every stdout line parsed as a JSON object (non-JSON lines are an error).
    QList<QJsonObject> jsonLines() const
    {
        QList<QJsonObject> list;
        for (const QByteArray& line : out.split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            if (!doc.isObject())
                qWarning("not a JSON line: %s", line.constData());
            list << doc.object();
        }
        return list;
    }
    QJsonObject lastJson() const
    {
        const QList<QJsonObject> lines = jsonLines();
        return lines.isEmpty() ? QJsonObject() : lines.back();
    }
};

inline Result cli(const QStringList& args, const QString& cwd = {},
                  const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                  int timeoutMs = 600'000)
{
    QProcess p;
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(KVLENS_CLI), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace clitest
