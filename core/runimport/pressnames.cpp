#include "runimport/pressnames.h"

#include <QHash>

namespace kvl {

QString kvlensPressName(const QString& sourceName)
{
    // Keys in lower case without "press" and separators: "SnapKVPress", "snapkv" and
    // "snap_kv" meet at "snapkv", "ChunkKVPress_Knorm" at "chunkkvknorm".
    static const QHash<QString, QString> names = {
        {QStringLiteral("snapkv"), QStringLiteral("snapkv")},
        {QStringLiteral("streamingllm"), QStringLiteral("streamingllm")},
        {QStringLiteral("tova"), QStringLiteral("tova")},
        {QStringLiteral("keydiff"), QStringLiteral("keydiff")},
        {QStringLiteral("think"), QStringLiteral("think")},
        {QStringLiteral("chunkkv"), QStringLiteral("chunkkv")},
        {QStringLiteral("chunkkvknorm"), QStringLiteral("chunkkv")},
        {QStringLiteral("adakv"), QStringLiteral("adakv")},
        {QStringLiteral("quantizedcache"), QStringLiteral("quantized")},
        {QStringLiteral("quantized"), QStringLiteral("quantized")},
        {QStringLiteral("knorm"), QStringLiteral("knorm")},
        {QStringLiteral("random"), QStringLiteral("random")},
        {QStringLiteral("observedattention"), QStringLiteral("observed")},
        {QStringLiteral("expectedattention"), QStringLiteral("expected")},
        {QStringLiteral("pyramidkv"), QStringLiteral("pyramidkv")},
        {QStringLiteral("qfilter"), QStringLiteral("qfilter")},
        {QStringLiteral("lagkv"), QStringLiteral("lagkv")},
        {QStringLiteral("kvzip"), QStringLiteral("kvzip")},
        {QStringLiteral("duoattention"), QStringLiteral("duo_attention")},
        {QStringLiteral("criticalkv"), QStringLiteral("criticalkv")},
        {QStringLiteral("blockkeydiff"), QStringLiteral("block")},
        {QStringLiteral("compactor"), QStringLiteral("compactor")},
        {QStringLiteral("leverage"), QStringLiteral("leverage")},
        {QStringLiteral("cur"), QStringLiteral("cur")},
        // kvpress evaluate_registry.py keys whose press KVLens has under its own name.
        {QStringLiteral("finch"), QStringLiteral("finch")},
        {QStringLiteral("kvcompose"), QStringLiteral("kvcompose")},
        {QStringLiteral("lukv"), QStringLiteral("lukv")},
    };
    QString key;
    for (const QChar c : sourceName)
        if (c.isLetterOrNumber())
            key += c.toLower();
    // "Press" may stand inside the name too: KVDiagnosis's ChunkKVPress_Knorm.
    key.remove(QLatin1String("press"));
    return names.value(key);
}

} // namespace kvl
