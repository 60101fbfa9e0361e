// `kvlens-cli tokenizer-train`: learn a byte-level BPE and write tokenizer.json.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "common/error.h"
#include "tokenizer/bpetrainer.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runTokenizerTrain(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Train a byte-level BPE on a corpus (.txt: one text per line; .jsonl: the \"text\" field, "
        "or context/question/answer fields, of each line) and write a tokenizer.json. "
        "<|bos|>, <|eos|>, <|pad|> are always ids 0, 1, 2."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("corpus"), QStringLiteral("FILE.txt or FILE.jsonl"),
         QStringLiteral("FILE")},
        {QStringLiteral("vocab-size"), QStringLiteral("final vocabulary size (default 2048)"),
         QStringLiteral("N"), QStringLiteral("2048")},
        {QStringLiteral("special"), QStringLiteral("extra special tokens, comma-separated"),
         QStringLiteral("LIST")},
        {QStringLiteral("min-frequency"), QStringLiteral("never merge rarer pairs (default 2)"),
         QStringLiteral("N"), QStringLiteral("2")},
        {QStringLiteral("out"), QStringLiteral("tokenizer.json to write"), QStringLiteral("FILE")},
    });
    p.process(args);
    const QString corpus = p.value(QStringLiteral("corpus"));
    const QString out = p.value(QStringLiteral("out"));
    if (corpus.isEmpty() || out.isEmpty())
        throw Error(QStringLiteral("--corpus FILE and --out FILE are required"));
    BpeTrainerOptions options;
    options.vocabSize = intOption(p, "vocab-size", 1);
    bool ok = false;
    options.minFrequency = p.value(QStringLiteral("min-frequency")).toInt(&ok);
    if (!ok)
        throw Error(QStringLiteral("--min-frequency must be an integer"));
    for (const QString& s :
         p.value(QStringLiteral("special")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        options.specialTokens << s.trimmed();

    QElapsedTimer timer;
    timer.start();
    BpeTrainer trainer(options);
    const bool jsonl = corpus.endsWith(QLatin1String(".jsonl"));
    qint64 texts = 0;
    forEachLine(corpus, [&](const QByteArray& line, const QString& where) {
        ++texts;
        if (!jsonl) {
            trainer.addText(QString::fromUtf8(line) + QLatin1Char('\n'));
            return;
        }
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            throw Error(where, QStringLiteral("not a JSON object (%1)").arg(err.errorString()));
        bool any = false;
        for (const char* key : {"text", "context", "question", "answer"}) {
            const QJsonValue v = doc.object().value(QLatin1String(key));
            if (v.isString()) {
                trainer.addText(v.toString());
                any = true;
            }
        }
        if (!any)
            throw Error(where,
                        QStringLiteral("no string field \"text\" (or context/question/answer)"));
    });
    trainer.train();
    trainer.save(out);
    printJson({{QStringLiteral("out"), out},
               {QStringLiteral("texts"), texts},
               {QStringLiteral("vocab_size"), trainer.vocabSize()},
               {QStringLiteral("merges"), qint64(trainer.merges().size())},
               {QStringLiteral("seconds"), double(timer.elapsed()) / 1000.0}});
    return 0;
}

const CommandRegistrar tokenizerTrainCommand("tokenizer-train",
                                             "learn a byte-level BPE tokenizer.json from a corpus",
                                             &runTokenizerTrain);
} // namespace
} // namespace kvl::cli
