// `kvlens-cli tokenize`: text <-> ids with a model's tokenizer.json (or "byte"); with
// --sample, a sample's prompt ids as the engine builds them.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/hfconfigreader.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "common/utf8text.h"
#include "run/preparedsample.h"
#include "tasks/promptformat.h"
#include "tasks/samplejsonl.h"
#include "tokenizer/tokenizer.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvl::cli {
namespace {

QJsonArray toArray(const std::vector<int>& ids)
{
    QJsonArray a;
    for (int id : ids)
        a.append(id);
    return a;
}

// A JSON list of ids (or {"ids": [...]}) from `value`; `where` names file and line.
std::vector<int> idsFrom(const QJsonValue& value, const Tokenizer& tok, const QString& where)
{
    const QJsonValue list =
        value.isObject() ? value.toObject().value(QStringLiteral("ids")) : value;
    if (!list.isArray())
        throw Error(where, QStringLiteral("expected a JSON list of ids or {\"ids\": [...]}"));
    std::vector<int> ids;
    for (const QJsonValue& v : list.toArray()) {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d != double(int(d)) || d < 0 || d >= tok.vocabSize())
            throw Error(
                where,
                QStringLiteral("id %1 is not an integer in [0, %2)")
                    .arg(v.isDouble()
                             ? QString::number(d, 'g', 17)
                             : QString::fromUtf8(
                                   QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)))
                    .arg(tok.vocabSize()));
        ids.push_back(int(d));
    }
    return ids;
}

QJsonObject encodeObject(const Tokenizer& tok, const QString& text, bool addSpecial, bool offsets)
{
    if (!offsets)
        return {{QStringLiteral("ids"), toArray(tok.encode(text, addSpecial))}};
    QJsonArray ids, ranges;
    for (const TokenSpan& s : tok.encodeWithOffsets(text, addSpecial)) {
        ids.append(s.id);
        ranges.append(QJsonArray{s.begin, s.end});
    }
    return {{QStringLiteral("ids"), ids}, {QStringLiteral("offsets"), ranges}};
}

// --sample: a sample as the engine tokenizes it (the sweep's prepareSample): the
// prefilled ids, the question ids after them, the answer, and each span's prefilled
// positions with the text of its tokens.
QJsonObject sampleIds(const Tokenizer& tok, const Sample& sample, const PromptFormat& format,
                      const QString& modelDir)
{
    const PreparedSample p = prepareSample(sample, sample.id, tok, format);
    const QString config = QDir(modelDir).filePath(QStringLiteral("config.json"));
    if (!modelDir.isEmpty() && QFileInfo::exists(config)) {
        const ModelConfig c = loadModelConfig(config);
        const qsizetype positions = qsizetype(p.ids.context.size() + p.ids.question.size());
        if (c.maxPositionEmbeddings > 0 && positions > c.maxPositionEmbeddings)
            throw Error(config, QStringLiteral("the prompt needs %1 positions but "
                                               "max_position_embeddings is %2")
                                    .arg(positions)
                                    .arg(c.maxPositionEmbeddings));
    }
    QJsonArray spans;
    for (const SpanPositions& s : p.spans) {
        std::vector<int> ids;
        for (int t : s.positions)
            ids.push_back(p.ids.context[size_t(t)]);
        QJsonObject o{
            {QStringLiteral("kind"), s.kind},
            {QStringLiteral("field"), s.field},
            {QStringLiteral("label"), s.label},
            {QStringLiteral("tokens"), QJsonArray{s.positions.front(), s.positions.back() + 1}},
            {QStringLiteral("text"), tok.decode(ids, false)}};
        if (!s.role.isEmpty())
            o.insert(QStringLiteral("role"), s.role);
        spans.append(o);
    }
    QJsonObject out{{QStringLiteral("id"), sample.id},
                    {QStringLiteral("chat_template"), format.describe()},
                    {QStringLiteral("context_ids"), toArray(p.ids.context)},
                    {QStringLiteral("question_ids"), toArray(p.ids.question)},
                    {QStringLiteral("answer_ids"), toArray(p.ids.answer)},
                    {QStringLiteral("context_offset"), p.ids.contextOffset},
                    {QStringLiteral("spans"), spans}};
    if (format.isChat()) {
        out.insert(QStringLiteral("prefix"), p.info.meta.value(QStringLiteral("prompt_prefix")));
        out.insert(QStringLiteral("tail"), p.info.meta.value(QStringLiteral("prompt_tail")));
    }
    return out;
}

int runTokenize(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Encode text to token ids ({\"ids\": [...]}) or, "
                                               "with --decode, ids to text ({\"text\": ...})."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("model"), QStringLiteral("model directory (uses DIR/tokenizer.json)"),
         QStringLiteral("DIR")},
        {QStringLiteral("tokenizer"),
         QStringLiteral("tokenizer.json, or \"byte\" for the bundled byte tokenizer"),
         QStringLiteral("FILE")},
        {QStringLiteral("text-file"), QStringLiteral("encode this file's whole text"),
         QStringLiteral("F")},
        {QStringLiteral("ids-file"), QStringLiteral("with --decode: a JSON list of ids"),
         QStringLiteral("F")},
        {QStringLiteral("jsonl"),
         QStringLiteral("one {\"text\": ...} (or with --decode {\"ids\": [...]}) per line"),
         QStringLiteral("F")},
        {QStringLiteral("add-special"), QStringLiteral("add the model's special tokens (BOS)")},
        {QStringLiteral("offsets"),
         QStringLiteral("also print each token's [begin, end) UTF-16 range")},
        {QStringLiteral("decode"), QStringLiteral("ids -> text")},
        {QStringLiteral("keep-special"),
         QStringLiteral("with --decode: keep special tokens in the text")},
        {QStringLiteral("sample"),
         QStringLiteral("a sample of this JSONL file as the engine tokenizes it: prefilled "
                        "(compressed) ids, question ids, answer ids, span positions"),
         QStringLiteral("F.jsonl")},
        {QStringLiteral("index"), QStringLiteral("with --sample: which sample (default 0)"),
         QStringLiteral("I"), QStringLiteral("0")},
    });
    addChatTemplateOptions(p);
    p.process(args);

    QString tokPath = p.value(QStringLiteral("tokenizer"));
    if (p.isSet(QStringLiteral("model")))
        tokPath =
            modelDirOption(p.value(QStringLiteral("model"))) + QStringLiteral("/tokenizer.json");
    if (tokPath.isEmpty() ||
        (p.isSet(QStringLiteral("model")) && p.isSet(QStringLiteral("tokenizer"))))
        throw Error(QStringLiteral("give exactly one of --model DIR or --tokenizer FILE"));
    if (p.isSet(QStringLiteral("sample"))) {
        const QString path = p.value(QStringLiteral("sample"));
        const std::vector<Sample> samples = readSamples(path);
        bool ok = false;
        const int index = p.value(QStringLiteral("index")).toInt(&ok);
        if (!ok || index < 0 || index >= int(samples.size()))
            throw Error(path, QStringLiteral("--index %1 is not in [0, %2)")
                                  .arg(p.value(QStringLiteral("index")))
                                  .arg(samples.size()));
        const QString modelDir = modelDirOption(p.value(QStringLiteral("model")));
        const PromptFormat format =
            PromptFormat::resolve(p.value(QStringLiteral("chat-template")), modelDir,
                                  chatVarsOption(p), QDir::currentPath());
        const Sample& sample = samples[size_t(index)];
        try {
            printJson(sampleIds(*loadTokenizer(tokPath), sample, format, modelDir));
        } catch (const Error& e) {
            throw Error(
                QStringLiteral("%1: sample '%2' (index %3)").arg(path, sample.id).arg(index),
                e.message());
        }
        return 0;
    }
    const bool decode = p.isSet(QStringLiteral("decode"));
    const QString jsonl = p.value(QStringLiteral("jsonl"));
    // With --decode, --text-file is accepted for the ids file too.
    const QString single = decode && p.isSet(QStringLiteral("ids-file"))
                               ? p.value(QStringLiteral("ids-file"))
                               : p.value(QStringLiteral("text-file"));
    if (jsonl.isEmpty() == single.isEmpty())
        throw Error(decode ? QStringLiteral(
                                 "give exactly one of --ids-file F (or --text-file F) or --jsonl F")
                           : QStringLiteral("give exactly one of --text-file F or --jsonl F"));
    const std::unique_ptr<Tokenizer> tok = loadTokenizer(tokPath);
    const bool addSpecial = p.isSet(QStringLiteral("add-special"));
    const bool offsets = p.isSet(QStringLiteral("offsets"));
    const bool skipSpecial = !p.isSet(QStringLiteral("keep-special"));

    if (!single.isEmpty()) {
        if (!decode) {
            printJson(encodeObject(*tok, readUtf8File(single), addSpecial, offsets));
            return 0;
        }
        const QByteArray bytes = readFileBytes(single);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
        if (err.error != QJsonParseError::NoError)
            throw Error(single, QStringLiteral("malformed JSON at offset %1: %2")
                                    .arg(err.offset)
                                    .arg(err.errorString()));
        const QJsonValue value = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
        printJson(
            {{QStringLiteral("text"), tok->decode(idsFrom(value, *tok, single), skipSpecial)}});
        return 0;
    }

    forEachLine(jsonl, [&](const QByteArray& line, const QString& where) {
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError)
            throw Error(where, QStringLiteral("malformed JSON at column %1: %2")
                                   .arg(err.offset + 1)
                                   .arg(err.errorString()));
        if (decode) {
            const QJsonValue value =
                doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
            printJson(
                {{QStringLiteral("text"), tok->decode(idsFrom(value, *tok, where), skipSpecial)}});
            return;
        }
        const QJsonValue text = doc.object().value(QStringLiteral("text"));
        if (!doc.isObject() || !text.isString())
            throw Error(where, QStringLiteral("expected an object with a string field \"text\""));
        printJson(encodeObject(*tok, text.toString(), addSpecial, offsets));
    });
    return 0;
}

const CommandRegistrar tokenizeCommand("tokenize", "encode text to ids / decode ids to text (JSON)",
                                       &runTokenize);
} // namespace
} // namespace kvl::cli
