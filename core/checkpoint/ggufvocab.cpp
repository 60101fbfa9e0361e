#include "checkpoint/ggufvocab.h"

#include "checkpoint/ggufwriter.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvl {

namespace {

// llama_token_type values.
constexpr int32_t kNormal = 1, kControl = 3, kUserDefined = 4, kUnused = 5;

// Split regexes llama.cpp knows by name (llama-vocab.cpp's pre-tokenizer types), as
// tokenizer.json files write them.
QString preTokenizerName(const QJsonValue& pre)
{
    const QJsonObject o = pre.toObject();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("ByteLevel"))
        return o.value(QStringLiteral("use_regex")).toBool(true) ? QStringLiteral("gpt-2")
                                                                 : QStringLiteral("default");
    if (type != QLatin1String("Sequence"))
        return QStringLiteral("default");
    QString regex;
    int splits = 0;
    for (const QJsonValue& step : o.value(QStringLiteral("pretokenizers")).toArray()) {
        const QJsonObject s = step.toObject();
        if (s.value(QStringLiteral("type")).toString() == QLatin1String("Split")) {
            regex = s.value(QStringLiteral("pattern"))
                        .toObject()
                        .value(QStringLiteral("Regex"))
                        .toString();
            ++splits;
        }
    }
    if (splits != 1)
        return QStringLiteral("default");
    const QString common = QStringLiteral("(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{"
                                          "L}+|%1| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
                                          "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+");
    if (regex == common.arg(QStringLiteral("\\p{N}")))
        return QStringLiteral("qwen2"); // single digits (Qwen2, Qwen3, the bundled model)
    if (regex == common.arg(QStringLiteral("\\p{N}{1,3}")))
        return QStringLiteral("llama-bpe"); // up to three digits (Llama 3)
    return QStringLiteral("default");
}

bool isByteLevel(const QJsonObject& json)
{
    const auto mentions = [](const QJsonValue& v) {
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact))
            .contains(QLatin1String("\"ByteLevel\""));
    };
    return mentions(json.value(QStringLiteral("pre_tokenizer"))) ||
           mentions(json.value(QStringLiteral("decoder")));
}

} // namespace

GgufVocab readGgufVocab(const QString& path, const ModelConfig& config)
{
    const QJsonObject json = readJsonObject(path);
    const QJsonObject model = json.value(QStringLiteral("model")).toObject();
    if (model.value(QStringLiteral("type")).toString(QStringLiteral("BPE")) !=
            QLatin1String("BPE") ||
        model.value(QStringLiteral("byte_fallback")).toBool(false) || !isByteLevel(json))
        throw Error(path, QStringLiteral("not a byte-level BPE tokenizer: GGUF vocabularies of "
                                         "other kinds (SentencePiece, WordPiece) are not written"));
    if (config.vocabSize <= 0)
        throw Error(path, QStringLiteral("the model's vocabulary size is unknown"));

    GgufVocab v;
    v.pre = preTokenizerName(json.value(QStringLiteral("pre_tokenizer")));
    const int size = config.vocabSize;
    std::vector<QString> tokens(static_cast<size_t>(size));
    std::vector<int32_t> types(static_cast<size_t>(size), kUnused);
    QHash<QString, int> idOf;
    const auto place = [&](const QString& token, qint64 id, int32_t type) {
        if (id < 0 || id >= size)
            throw Error(path, QStringLiteral("token '%1' has id %2, outside the model's %3 rows")
                                  .arg(token)
                                  .arg(id)
                                  .arg(size));
        // An added token may restate a vocabulary entry (same text, same id).
        if (!tokens[size_t(id)].isNull() && tokens[size_t(id)] != token)
            throw Error(path, QStringLiteral("id %1 names both '%2' and '%3'")
                                  .arg(id)
                                  .arg(tokens[size_t(id)], token));
        const auto other = idOf.constFind(token);
        if (other != idOf.constEnd() && *other != id)
            throw Error(
                path,
                QStringLiteral("token '%1' has two ids, %2 and %3").arg(token).arg(*other).arg(id));
        tokens[size_t(id)] = token;
        types[size_t(id)] = type;
        idOf.insert(token, int(id));
    };
    const QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
    for (auto it = vocab.begin(); it != vocab.end(); ++it)
        place(it.key(), it.value().toInteger(-1), kNormal);
    QHash<QString, int> specialIds;
    for (const QJsonValue& a : json.value(QStringLiteral("added_tokens")).toArray()) {
        const QJsonObject t = a.toObject();
        const QString content = t.value(QStringLiteral("content")).toString();
        const bool special = t.value(QStringLiteral("special")).toBool(false);
        place(content, t.value(QStringLiteral("id")).toInteger(-1),
              special ? kControl : kUserDefined);
        if (special)
            specialIds.insert(content, t.value(QStringLiteral("id")).toInt());
    }
    // Rows no token uses: a name no token has, as llama.cpp needs every name unique.
    for (int id = 0; id < size; ++id) {
        if (!tokens[size_t(id)].isNull())
            continue;
        QString name = QStringLiteral("[PAD%1]").arg(id);
        while (idOf.contains(name))
            name += QLatin1Char('_');
        tokens[size_t(id)] = name;
        idOf.insert(name, id);
    }
    v.tokens = QStringList(tokens.begin(), tokens.end());
    v.tokenTypes = std::move(types);

    for (const QJsonValue& m : model.value(QStringLiteral("merges")).toArray()) {
        if (m.isString()) {
            v.merges << m.toString();
        } else {
            // Newer files write a merge as a pair.
            const QJsonArray pair = m.toArray();
            if (pair.size() != 2)
                throw Error(path, QStringLiteral("a merge is neither \"a b\" nor [a, b]"));
            v.merges << pair.at(0).toString() + QLatin1Char(' ') + pair.at(1).toString();
        }
    }

    // BOS: the config's, else the special token the post-processor puts first.
    const QJsonObject post = json.value(QStringLiteral("post_processor")).toObject();
    const QJsonArray single = post.value(QStringLiteral("single")).toArray();
    if (post.value(QStringLiteral("type")).toString() == QLatin1String("TemplateProcessing") &&
        !single.isEmpty()) {
        const QString first = single.first()
                                  .toObject()
                                  .value(QStringLiteral("SpecialToken"))
                                  .toObject()
                                  .value(QStringLiteral("id"))
                                  .toString();
        if (!first.isEmpty() && idOf.contains(first)) {
            v.addBos = true;
            v.bosId = idOf.value(first);
        }
    }
    if (config.bosTokenId)
        v.bosId = *config.bosTokenId;
    if (!config.eosTokenIds.empty()) {
        v.eosId = config.eosTokenIds.front();
    } else {
        for (const char* name : {"<|endoftext|>", "<|end_of_text|>", "<|eos|>", "</s>"})
            if (specialIds.contains(QLatin1String(name))) {
                v.eosId = specialIds.value(QLatin1String(name));
                break;
            }
    }
    for (const char* name : {"<|pad|>", "<pad>", "<|finetune_right_pad_id|>"})
        if (specialIds.contains(QLatin1String(name))) {
            v.padId = specialIds.value(QLatin1String(name));
            break;
        }
    for (const std::optional<int>* id : {&v.bosId, &v.eosId, &v.padId})
        if (*id && (**id < 0 || **id >= size))
            throw Error(path, QStringLiteral("special token id %1 is outside the model's %2 rows")
                                  .arg(**id)
                                  .arg(size));
    return v;
}

void GgufVocab::addTo(GgufWriter& w) const
{
    w.setString(QStringLiteral("tokenizer.ggml.model"), model);
    w.setString(QStringLiteral("tokenizer.ggml.pre"), pre);
    w.setStringArray(QStringLiteral("tokenizer.ggml.tokens"), tokens);
    w.setInt32Array(QStringLiteral("tokenizer.ggml.token_type"), tokenTypes);
    w.setStringArray(QStringLiteral("tokenizer.ggml.merges"), merges);
    if (bosId)
        w.setUint32(QStringLiteral("tokenizer.ggml.bos_token_id"), uint32_t(*bosId));
    if (eosId)
        w.setUint32(QStringLiteral("tokenizer.ggml.eos_token_id"), uint32_t(*eosId));
    if (padId)
        w.setUint32(QStringLiteral("tokenizer.ggml.padding_token_id"), uint32_t(*padId));
    w.setBool(QStringLiteral("tokenizer.ggml.add_bos_token"), addBos);
}

} // namespace kvl
