// Reading tokenizer.json into an HfTokenizer (the encoding side is hftokenizer.cpp).
#include "tokenizer/hftokenizer.h"

#include "tokenizer/bytelevel.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <algorithm>

namespace kvl {

namespace {
// How many ids below the largest may be unused (real tokenizers have none).
constexpr qint64 kUnusedIdLimit = 1024;

// "<0x0A>": the token byte fallback spells byte b with.
QString byteFallbackToken(int b)
{
    return QStringLiteral("<0x%1>").arg(
        QString::number(b, 16).toUpper().rightJustified(2, QLatin1Char('0')));
}

QJsonObject readOptionalJson(const QString& path)
{
    if (!QFileInfo::exists(path))
        return {};
    return readJsonObject(path);
}
} // namespace

std::unique_ptr<HfTokenizer> HfTokenizer::load(const QString& path)
{
    const QJsonObject json = readJsonObject(path);
    const QString dir = QFileInfo(path).absolutePath();
    auto t = fromJson(json, path, readOptionalJson(dir + QStringLiteral("/tokenizer_config.json")),
                      readOptionalJson(dir + QStringLiteral("/generation_config.json")));
    // Of the file's bytes: hashing them costs ~1% of the parse (re-serializing the
    // parsed JSON to hash it canonically cost another 40%).
    const QByteArray digest =
        QCryptographicHash::hash(readFileBytes(path), QCryptographicHash::Sha256);
    t->m_identity = QStringLiteral("sha256:") + QString::fromLatin1(digest.toHex().left(16));
    return t;
}

std::unique_ptr<HfTokenizer> HfTokenizer::fromJson(const QJsonObject& json, const QString& path,
                                                   const QJsonObject& config,
                                                   const QJsonObject& generationConfig)
{
    std::unique_ptr<HfTokenizer> t(new HfTokenizer);
    if (!json.value(QStringLiteral("model")).isObject())
        throw Error(path, QStringLiteral("no \"model\" object (is this a tokenizer.json?)"));
    t->m_normalizer = Normalizer::fromJson(json.value(QStringLiteral("normalizer")), path);
    t->m_pre = PreTokenizer::fromJson(json.value(QStringLiteral("pre_tokenizer")), path);
    t->m_decoder = Decoder::fromJson(json.value(QStringLiteral("decoder")), path);
    t->loadModel(json.value(QStringLiteral("model")).toObject(), path);
    t->loadAddedTokens(json.value(QStringLiteral("added_tokens")).toArray(), path);
    t->buildIdTable(path);
    t->loadPostProcessor(json.value(QStringLiteral("post_processor")), path, config);
    t->loadSpecialNames(config, generationConfig);
    return t;
}

void HfTokenizer::loadModel(const QJsonObject& model, const QString& path)
{
    const QString type = model.value(QStringLiteral("type")).toString(QStringLiteral("BPE"));
    if (type != QLatin1String("BPE"))
        throw Error(path,
                    QStringLiteral("unsupported tokenizer model type '%1' (only BPE is supported)")
                        .arg(type));
    if (!model.value(QStringLiteral("vocab")).isObject())
        throw Error(path, QStringLiteral("BPE model without a \"vocab\" object"));
    if (!model.value(QStringLiteral("merges")).isArray())
        throw Error(path, QStringLiteral("BPE model without a \"merges\" list"));
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (!model.value(QLatin1String(key)).toString().isEmpty())
            throw Error(path, QStringLiteral("unsupported BPE option %1").arg(QLatin1String(key)));
    }

    const QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
    m_vocab.reserve(int(vocab.size()));
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        if (!it.value().isDouble() || it.value().toInt(-1) < 0)
            throw Error(path, QStringLiteral("vocab entry '%1' has no valid id").arg(it.key()));
        if (!m_vocab.insert(it.key(), it.value().toInt()))
            throw Error(path, QStringLiteral("vocab entry '%1' appears twice").arg(it.key()));
    }

    const bool byteLevel = m_pre.isByteLevel();
    m_byteIds.fill(-1);
    m_fallbackIds.fill(-1);
    for (int b = 0; b < 256; ++b) {
        if (byteLevel)
            m_byteIds[size_t(b)] = vocabId(QString(bytelevel::byteToChar(uchar(b))));
        m_fallbackIds[size_t(b)] = vocabId(byteFallbackToken(b));
    }
    m_byteFallback = model.value(QStringLiteral("byte_fallback")).toBool(false);
    // Byte-level BPE never falls back (every byte has its own character); the others
    // would silently turn every unknown character into <unk>.
    if (m_byteFallback && !byteLevel) {
        const auto missing = std::count(m_fallbackIds.begin(), m_fallbackIds.end(), -1);
        const auto first = std::find(m_fallbackIds.begin(), m_fallbackIds.end(), -1);
        if (missing > 0)
            throw Error(path, QStringLiteral("model.byte_fallback is true but the vocabulary lacks "
                                             "the byte token '%1' (%2 of the 256 tokens "
                                             "<0x00>..<0xFF> are missing)")
                                  .arg(byteFallbackToken(int(first - m_fallbackIds.begin())))
                                  .arg(missing));
    }
    m_ignoreMerges = model.value(QStringLiteral("ignore_merges")).toBool(false);
    m_fuseUnk = model.value(QStringLiteral("fuse_unk")).toBool(false);
    const QString unk = model.value(QStringLiteral("unk_token")).toString();
    if (!unk.isEmpty()) {
        if (vocabId(unk) < 0)
            throw Error(path, QStringLiteral("unk_token '%1' is not in the vocabulary").arg(unk));
        m_unk = vocabId(unk);
    }
    if (byteLevel && m_ignoreMerges) {
        m_rawVocab.reserve(size_t(m_vocab.size()));
        for (int e = 0; e < m_vocab.size(); ++e) {
            QByteArray raw;
            if (bytelevel::fromChars(m_vocab.keys()[size_t(e)], raw))
                m_rawVocab.emplace(raw.toStdString(), m_vocab.ids()[size_t(e)]);
        }
    }

    const QJsonArray merges = model.value(QStringLiteral("merges")).toArray();
    m_bpe.reserve(int(merges.size()));
    for (qsizetype i = 0; i < merges.size(); ++i) {
        QString left, right;
        const QJsonValue m = merges.at(i);
        if (m.isString()) {
            // The older format "a b": the first space separates the pair.
            const QString s = m.toString();
            const qsizetype space = s.indexOf(QLatin1Char(' '));
            if (space < 0 || s.count(QLatin1Char(' ')) != 1)
                throw Error(path, QStringLiteral("merge %1 \"%2\" is not a pair").arg(i).arg(s));
            left = s.left(space);
            right = s.mid(space + 1);
        } else if (m.isArray() && m.toArray().size() == 2) {
            left = m.toArray().at(0).toString();
            right = m.toArray().at(1).toString();
        } else {
            throw Error(path, QStringLiteral("merge %1 is neither \"a b\" nor [a, b]").arg(i));
        }
        const int l = vocabId(left);
        const int r = vocabId(right);
        const int merged = vocabId(left + right);
        if (l < 0 || r < 0 || merged < 0) {
            const QString missing = l < 0 ? left : r < 0 ? right : left + right;
            throw Error(path,
                        QStringLiteral("merge %1 (\"%2\" \"%3\") refers to '%4', which is not in "
                                       "the vocabulary")
                            .arg(i)
                            .arg(left, right, missing));
        }
        m_bpe.addMerge(l, r, merged);
    }
}

void HfTokenizer::loadAddedTokens(const QJsonArray& added, const QString& path)
{
    for (const QJsonValue& v : added) {
        const QJsonObject o = v.toObject();
        AddedTokens::Token t;
        t.content = o.value(QStringLiteral("content")).toString();
        t.id = o.value(QStringLiteral("id")).toInt(-1);
        if (t.content.isEmpty() || t.id < 0)
            throw Error(path, QStringLiteral("added token without content or id"));
        t.special = o.value(QStringLiteral("special")).toBool(false);
        t.lstrip = o.value(QStringLiteral("lstrip")).toBool(false);
        t.rstrip = o.value(QStringLiteral("rstrip")).toBool(false);
        t.singleWord = o.value(QStringLiteral("single_word")).toBool(false);
        m_added.add(t);
    }
}

void HfTokenizer::buildIdTable(const QString& path)
{
    // The id -> token table is indexed by id. Real vocabularies are dense (0..N-1,
    // added tokens right above them), so a largest id far beyond the entry count is a
    // damaged file: checked before the table would take gigabytes.
    const std::vector<AddedTokens::Token>& added = m_added.tokens();
    int maxId = -1;
    QString maxToken;
    for (int e = 0; e < m_vocab.size(); ++e)
        if (m_vocab.ids()[size_t(e)] > maxId) {
            maxId = m_vocab.ids()[size_t(e)];
            maxToken = m_vocab.keys()[size_t(e)];
        }
    for (const AddedTokens::Token& t : added)
        if (t.id > maxId) {
            maxId = t.id;
            maxToken = t.content;
        }
    const qint64 entries = qint64(m_vocab.size()) + qint64(added.size());
    if (qint64(maxId) >= entries + kUnusedIdLimit)
        throw Error(path, QStringLiteral("token '%1' has id %2, far above the %3 entries of the "
                                         "vocabulary and added tokens: ids must run from 0 "
                                         "with at most %4 unused ids below the largest")
                              .arg(maxToken)
                              .arg(maxId)
                              .arg(entries)
                              .arg(kUnusedIdLimit));

    m_idToToken.assign(size_t(maxId + 1), QString());
    std::vector<int> owner(size_t(maxId + 1), -1); // vocab entry holding each id
    for (int e = 0; e < m_vocab.size(); ++e) {
        const int id = m_vocab.ids()[size_t(e)];
        if (owner[size_t(id)] >= 0)
            throw Error(
                path, QStringLiteral("vocab entries '%1' and '%2' share id %3")
                          .arg(m_vocab.keys()[size_t(owner[size_t(id)])], m_vocab.keys()[size_t(e)])
                          .arg(id));
        owner[size_t(id)] = e;
        m_idToToken[size_t(id)] = m_vocab.keys()[size_t(e)];
    }
    // An added token may restate a vocab entry's id (that is how specials are
    // declared), but two added tokens with one id cannot both decode.
    QHash<int, QString> addedById;
    for (const AddedTokens::Token& t : added) {
        if (const auto it = addedById.constFind(t.id);
            it != addedById.constEnd() && *it != t.content)
            throw Error(path, QStringLiteral("added tokens '%1' and '%2' share id %3")
                                  .arg(*it, t.content)
                                  .arg(t.id));
        addedById.insert(t.id, t.content);
        m_idToToken[size_t(t.id)] = t.content;
    }
}

std::optional<int> HfTokenizer::configTokenId(const QJsonValue& v) const
{
    // tokenizer_config.json writes a token as "text" or {"content": "text", ...}.
    const QString name =
        v.isObject() ? v.toObject().value(QStringLiteral("content")).toString() : v.toString();
    if (name.isEmpty())
        return std::nullopt;
    return tokenToId(name);
}

void HfTokenizer::loadPostProcessor(const QJsonValue& json, const QString& path,
                                    const QJsonObject& config)
{
    QJsonArray processors;
    if (json.toObject().value(QStringLiteral("type")).toString() == QLatin1String("Sequence"))
        processors = json.toObject().value(QStringLiteral("processors")).toArray();
    else if (json.isObject())
        processors.append(json);
    bool templated = false;
    for (const QJsonValue& p : processors) {
        const QJsonObject o = p.toObject();
        const QString type = o.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("ByteLevel"))
            continue; // only trims offsets, which ours never include anyway
        if (type == QLatin1String("TemplateProcessing")) {
            templated = true;
            const QJsonObject specials = o.value(QStringLiteral("special_tokens")).toObject();
            bool afterSequence = false;
            for (const QJsonValue& item : o.value(QStringLiteral("single")).toArray()) {
                const QJsonObject io = item.toObject();
                if (io.contains(QStringLiteral("Sequence"))) {
                    afterSequence = true;
                    continue;
                }
                const QString name = io.value(QStringLiteral("SpecialToken"))
                                         .toObject()
                                         .value(QStringLiteral("id"))
                                         .toString();
                const QJsonArray ids =
                    specials.value(name).toObject().value(QStringLiteral("ids")).toArray();
                if (ids.isEmpty())
                    throw Error(path,
                                QStringLiteral("post_processor template names special token '%1' "
                                               "without ids")
                                    .arg(name));
                for (const QJsonValue& id : ids)
                    (afterSequence ? m_suffix : m_prefix).push_back(id.toInt());
            }
        } else if (type == QLatin1String("RobertaProcessing") ||
                   type == QLatin1String("BertProcessing")) {
            templated = true;
            m_prefix.push_back(o.value(QStringLiteral("cls")).toArray().at(1).toInt());
            m_suffix.push_back(o.value(QStringLiteral("sep")).toArray().at(1).toInt());
        } else {
            throw Error(path, QStringLiteral("unsupported post_processor type '%1'").arg(type));
        }
    }
    if (!templated) {
        // No template: transformers then follows tokenizer_config.json's flags.
        if (config.value(QStringLiteral("add_bos_token")).toBool(false))
            if (auto id = configTokenId(config.value(QStringLiteral("bos_token"))))
                m_prefix.push_back(*id);
        if (config.value(QStringLiteral("add_eos_token")).toBool(false))
            if (auto id = configTokenId(config.value(QStringLiteral("eos_token"))))
                m_suffix.push_back(*id);
    }
}

void HfTokenizer::loadSpecialNames(const QJsonObject& config, const QJsonObject& generationConfig)
{
    m_bos = configTokenId(config.value(QStringLiteral("bos_token")));
    if (!m_bos && !m_prefix.empty())
        m_bos = m_prefix.front();
    const QStringList bosNames{QStringLiteral("<|begin_of_text|>"), QStringLiteral("<s>"),
                               QStringLiteral("<|bos|>"), QStringLiteral("<bos>")};
    for (const QString& name : bosNames)
        if (!m_bos && m_added.byContent(name))
            m_bos = m_added.byContent(name)->id;

    if (auto id = configTokenId(config.value(QStringLiteral("eos_token"))))
        m_stop.push_back(*id);
    const QJsonValue eos = generationConfig.value(QStringLiteral("eos_token_id"));
    for (const QJsonValue& v : eos.isArray() ? eos.toArray() : QJsonArray{eos})
        if (v.isDouble())
            m_stop.push_back(v.toInt());
    const QStringList stopNames{QStringLiteral("</s>"),          QStringLiteral("<|end_of_text|>"),
                                QStringLiteral("<|eot_id|>"),    QStringLiteral("<|eom_id|>"),
                                QStringLiteral("<|endoftext|>"), QStringLiteral("<|im_end|>"),
                                QStringLiteral("<|eos|>"),       QStringLiteral("<eos>"),
                                QStringLiteral("<end_of_turn>")};
    for (const QString& name : stopNames)
        if (const AddedTokens::Token* t = m_added.byContent(name); t && t->special)
            m_stop.push_back(t->id);
    std::sort(m_stop.begin(), m_stop.end());
    m_stop.erase(std::unique(m_stop.begin(), m_stop.end()), m_stop.end());
}

} // namespace kvl
