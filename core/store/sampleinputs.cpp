#include "store/sampleinputs.h"

#include <QCryptographicHash>

namespace kvl {

const QStringList& sampleInputFields()
{
    static const QStringList fields = {
        QStringLiteral("context"),   QStringLiteral("question"),     QStringLiteral("answer"),
        QStringLiteral("spans"),     QStringLiteral("system"),       QStringLiteral("model"),
        QStringLiteral("tokenizer"), QStringLiteral("chat_template")};
    return fields;
}

QString firstDifferingInput(const QJsonObject& recorded, const QJsonObject& current)
{
    for (const QString& field : sampleInputFields())
        if (recorded.contains(field) && current.contains(field) &&
            recorded.value(field) != current.value(field))
            return field;
    return {};
}

QString inputHash(const QByteArray& bytes)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().left(32));
}

} // namespace kvl
