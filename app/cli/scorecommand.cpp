// `kvlens-cli score --suite NAME FILE.jsonl`: scores model outputs. Each input line is
// a sample plus a "prediction" string; prints one score object per line, then the
// means (ScoreSummary).
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/samplejsonl.h"
#include "tasks/samplescorer.h"

#include <QCommandLineParser>

namespace kvl::cli {
namespace {

int runScore(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Score predictions: each line of FILE is a sample (core/tasks/SCHEMA.md) with a "
        "\"prediction\" string. Prints {\"id\", \"score\", ...} per line (score in [0, 1]; "
        "instructions add one field per rule, \"leak\" and \"leak_recall\") and a final "
        "{\"summary\": true, \"n\", \"score\" (mean), \"percent\", ...} line; text2json "
        "summaries name their rule (\"text2json_rule\": \"published\" or \"lenient\")."));
    parser.addHelpOption();
    const QCommandLineOption suite(
        QStringLiteral("suite"),
        QStringLiteral("scoring rule: retrieval, multihop (exact match), instructions, text2json; "
                       "default: each sample's suite"),
        QStringLiteral("NAME"));
    parser.addOption(suite);
    const QCommandLineOption lenient(
        QStringLiteral("lenient"),
        QStringLiteral("text2json: KVLens's lenient rule (first '[' to last ']', Qt's JSON "
                       "parser, null = wrong value) instead of the published evaluator's rule"));
    parser.addOption(lenient);
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("JSONL with predictions"));
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("score needs one JSONL file (--help for usage)"));
    const QString path = parser.positionalArguments().first();

    const Text2jsonRule text2jsonRule =
        parser.isSet(lenient) ? Text2jsonRule::Lenient : Text2jsonRule::Published;
    bool scoredText2json = false;
    ScoreSummary summary;
    for (const SampleLine& line : parseSampleLines(readFileBytes(path), path)) {
        const QString where = QStringLiteral("line %1: ").arg(line.line);
        const QJsonValue prediction = line.raw.value(QStringLiteral("prediction"));
        if (!prediction.isString())
            throw Error(path, where + QStringLiteral("field 'prediction': %1")
                                          .arg(prediction.isUndefined()
                                                   ? QStringLiteral("missing")
                                                   : QStringLiteral("expected a string")));
        const QString rule = parser.isSet(suite) ? parser.value(suite) : line.sample.suite;
        if (rule.isEmpty())
            throw Error(path, where + QStringLiteral("field 'suite': empty; pass --suite"));
        QJsonObject score;
        try {
            score = scoreSample(rule, line.sample, prediction.toString(), text2jsonRule);
        } catch (const Error& e) {
            throw Error(path, where + e.message());
        }
        scoredText2json = scoredText2json || rule == QLatin1String("text2json");
        summary.add(score);
        score.insert(QStringLiteral("id"), line.sample.id);
        printJson(score);
    }
    QJsonObject mean = summary.toJson();
    mean.insert(QStringLiteral("summary"), true);
    // Which Text2JSON rule the figures follow, so a lenient figure is never mistaken
    // for the study's.
    if (scoredText2json)
        mean.insert(QStringLiteral("text2json_rule"), text2jsonRuleName(text2jsonRule));
    printJson(mean);
    return 0;
}

const CommandRegistrar scoreCommand("score", "score model predictions of a task-suite JSONL file",
                                    &runScore);
} // namespace
} // namespace kvl::cli
