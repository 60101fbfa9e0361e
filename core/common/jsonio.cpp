#include "common/jsonio.h"

#include "common/error.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>

namespace kvl {

QByteArray readFileBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path, QStringLiteral("cannot open for reading (%1)").arg(file.errorString()));
    return file.readAll();
}

QJsonObject readJsonObject(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        throw Error(path, QStringLiteral("malformed JSON at offset %1: %2")
                              .arg(parseError.offset)
                              .arg(parseError.errorString()));
    if (!doc.isObject())
        throw Error(path, QStringLiteral("expected a JSON object at the top level"));
    return doc.object();
}

void writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    // QSaveFile renames a temporary file over the target: over a device or a link
    // (/dev/full, /dev/stdout) that would replace the device itself.
    const QFileInfo info(path);
    if (info.exists() && (!info.isFile() || info.isSymLink()))
        throw Error(path,
                    QStringLiteral("refusing to replace something that is not a regular file"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw Error(path, QStringLiteral("cannot open for writing (%1)").arg(file.errorString()));
    if (file.write(bytes) != bytes.size())
        throw Error(path, QStringLiteral("write failed (%1)").arg(file.errorString()));
    if (!file.commit())
        throw Error(path, QStringLiteral("cannot complete the write (%1)").arg(file.errorString()));
}

QByteArray toJsonLine(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace kvl
