#include "run/sweeprunner.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "compressors/presscatalog.h"
#include "diagnose/attentionpooling.h"
#include "model/transformer.h"
#include "run/preparedsample.h"
#include "run/sampleevaluator.h"
#include "run/sampleplan.h"
#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/runspecdifference.h"
#include "store/runwriter.h"
#include "store/sampleinputs.h"
#include "tasks/countedtokenizer.h"
#include "tokenizer/tokenizer.h"

#include <c10/core/InferenceMode.h>
#include <ATen/Parallel.h>
#include <torch/types.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>

namespace kvl {

namespace {

QJsonValue optionalJson(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString modelNameOf(const QString& dir)
{
    const QFileInfo info(QDir::cleanPath(QFileInfo(dir).absoluteFilePath()));
    if (info.fileName() == QLatin1String("checkpoint"))
        return QFileInfo(info.absolutePath()).fileName() + QStringLiteral("/checkpoint");
    return info.fileName();
}

// Keys of the samples a previous invocation recorded as skipped (no rows, a reason).
struct RunningAccuracy
{
    qint64 n = 0;
    qint64 correct = 0;
    void add(bool c)
    {
        ++n;
        correct += c ? 1 : 0;
    }
    std::optional<double> value() const
    {
        return n > 0 ? std::optional<double>(double(correct) / double(n)) : std::nullopt;
    }
};

// Adds the rows a previous invocation stored for `sampleKeys`: a resumed sweep reports
// the accuracy of the run so far, not only of the samples it ran itself.
void addStoredRows(const QString& path, const QSet<QString>& sampleKeys, const QString& fullKey,
                   RunningAccuracy& full, RunningAccuracy& compressed)
{
    if (sampleKeys.isEmpty())
        return;
    RunReader reader(path);
    for (const StoredResult& r : reader.results())
        if (sampleKeys.contains(r.sampleKey))
            (r.record.configKey == fullKey ? full : compressed).add(r.record.correct);
}

const QString kChatTemplateUsed = QStringLiteral("chat_template_used");

// A sample whose prompt cannot be laid out: it stops the sweep instead of being skipped.
class PromptLayoutError : public Error
{
  public:
    using Error::Error;
};

// A run file's record of its template; runs written before templates existed used none.
QJsonObject usedChatTemplate(const QJsonObject& spec)
{
    const QJsonObject used = spec.value(kChatTemplateUsed).toObject();
    return used.isEmpty() ? QJsonObject{{QStringLiteral("template"), QStringLiteral("none")}}
                          : used;
}

// The row blobs as the run file keeps them: attention pooled to the spec's column bound.
void poolStoredAttention(SampleRecord& record, int maxColumns)
{
    for (ResultRecord& r : record.results)
        if (r.attention)
            r.attention = poolAttention(*r.attention,
                                        attentionColumnWidth(r.attention->contextLen, maxColumns));
}

QString describeUsed(const QJsonObject& used)
{
    const QString file = used.value(QStringLiteral("template")).toString();
    const QString sha = used.value(QStringLiteral("sha256")).toString();
    return sha.isEmpty() ? file : QStringLiteral("%1 (sha256 %2)").arg(file, sha.left(12));
}

// --force-new: the old run file goes, with the WAL and index files SQLite keeps beside it.
void removeRunFile(const QString& path)
{
    for (const QString& p : {path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm")})
        if (QFileInfo::exists(p) && !QFile::remove(p))
            throw Error(p, QStringLiteral("cannot be removed for --force-new"));
}

} // namespace

QJsonObject SweepSummary::toJson() const
{
    return {{QStringLiteral("out"), out},
            {QStringLiteral("total"), total},
            {QStringLiteral("done"), done},
            {QStringLiteral("ran"), ran},
            {QStringLiteral("resumed"), resumed},
            {QStringLiteral("skipped"), skipped},
            {QStringLiteral("configs"), configs},
            {QStringLiteral("finished"), finished},
            {QStringLiteral("interrupted"), interrupted},
            {QStringLiteral("seconds"), seconds},
            {QStringLiteral("accuracy_full"), optionalJson(fullAccuracy)},
            {QStringLiteral("accuracy_compressed"), optionalJson(compressedAccuracy)}};
}

QString SweepRunner::sourceName(const PlannedSample& planned) const
{
    const SampleSource& source = m_spec.samples[size_t(planned.source)];
    return source.kind == SampleSource::Kind::Jsonl ? source.resolvedPath
                                                    : QStringLiteral("suite %1").arg(source.suite);
}

void SweepRunner::checkSamples(const std::vector<const PlannedSample*>& todo,
                               const PromptFormat& format, const Tokenizer& tokenizer,
                               const SampleEvaluator& evaluator) const
{
    for (const PlannedSample* planned : todo) {
        std::optional<Sample> sample;
        try {
            sample = materializeSample(*planned, m_spec, tokenizer);
        } catch (const Error&) {
            continue; // not a layout or a length: the sweep records it as skipped
        }
        const PreparedSample prepared = prepareOrFail(*sample, *planned, format, tokenizer);
        if (m_spec.skipTooLong)
            continue;
        try {
            evaluator.checkFits(prepared);
        } catch (const Error& e) {
            throw Error(QStringLiteral("%1: sample '%2'").arg(sourceName(*planned), sample->id),
                        QStringLiteral("%1 (nothing was run; shorten the sample, or pass "
                                       "--skip-too-long to record it as skipped and run the rest)")
                            .arg(e.message()));
        }
    }
}

PreparedSample SweepRunner::prepareOrFail(const Sample& sample, const PlannedSample& planned,
                                          const PromptFormat& format,
                                          const Tokenizer& tokenizer) const
{
    // A prompt the template cannot lay out is the run's configuration at fault, not one
    // sample's length: the sweep stops, naming the file and the record.
    try {
        return prepareSample(sample, planned.key, tokenizer, format);
    } catch (const Error& e) {
        throw PromptLayoutError(
            QStringLiteral("%1: sample '%2'").arg(sourceName(planned), sample.id), e.message());
    }
}

void SweepRunner::checkResumedInputs(const QString& outPath,
                                     const std::vector<const PlannedSample*>& mine,
                                     const QSet<QString>& finished,
                                     const QHash<QString, QJsonObject>& storedMeta,
                                     const Tokenizer& tokenizer,
                                     const RunInputHashes& hashes) const
{
    if (finished.isEmpty())
        return;
    QHash<QString, QJsonObject> recorded;
    for (auto s = storedMeta.begin(); s != storedMeta.end(); ++s)
        if (s->contains(kSampleInputs))
            recorded.insert(s.key(), s->value(kSampleInputs).toObject());
    const QString advice = QStringLiteral("resume it with the inputs it was run with, or pass "
                                          "--force-new to start a new file");
    for (const PlannedSample* planned : mine) {
        const auto it = recorded.constFind(planned->key);
        if (!finished.contains(planned->key) || it == recorded.constEnd())
            continue;
        QJsonObject current;
        try {
            current = sampleInputRecord(materializeSample(*planned, m_spec, tokenizer), hashes);
        } catch (const Error& e) {
            throw Error(outPath, QStringLiteral("holds sample '%1', which %2 can no longer give "
                                                "(%3); %4")
                                     .arg(planned->key, sourceName(*planned), e.message(), advice));
        }
        if (const QString field = firstDifferingInput(*it, current); !field.isEmpty())
            throw Error(outPath, QStringLiteral("holds sample '%1' run with another %2 than %3 "
                                                "gives now (the first difference); %4")
                                     .arg(planned->key, field, sourceName(*planned), advice));
    }
}

SweepRunner::SweepRunner(ExperimentSpec spec, SweepOptions options)
    : m_spec(std::move(spec)), m_options(std::move(options))
{}

SweepSummary SweepRunner::run(const QString& outPath)
{
    QElapsedTimer clock;
    clock.start();
    // Everything that can be wrong with the spec fails before the model loads.
    const PressCatalog catalog;
    std::vector<SweepConfig> configs = buildSweepConfigs(m_spec, catalog);
    const std::vector<PlannedSample> plan = planSamples(m_spec);
    std::vector<const PlannedSample*> mine;
    for (size_t i = 0; i < plan.size(); ++i)
        if (m_options.shard.contains(int(i)))
            mine.push_back(&plan[i]);

    const QString modelDir = m_options.modelDir.isEmpty() ? m_spec.model : m_options.modelDir;
    const auto model = Transformer::load(modelDir);
    const QString tokenizerPath = model->checkpoint()->requireTokenizerPath();
    const auto tokenizer = loadTokenizer(tokenizerPath);
    // Samples generated for another tokenizer fail before the run file is touched.
    for (const PlannedSample* p : mine)
        if (p->sample)
            checkCountedTokenizer(*p->sample, m_spec.samples[size_t(p->source)].resolvedPath,
                                  *tokenizer, tokenizerPath);
    const PromptFormat format =
        PromptFormat::resolve(m_spec.chatTemplatePath, modelDir, m_spec.chatVars);
    if (m_spec.threads > 0)
        at::set_num_threads(m_spec.threads);

    RunInputHashes inputHashes;
    inputHashes.model = model->checkpoint()->identityHash();
    inputHashes.tokenizer = inputHash(readFileBytes(tokenizerPath));
    inputHashes.chatTemplate =
        inputHash(QJsonDocument(format.identity()).toJson(QJsonDocument::Compact));

    if (m_options.forceNew)
        removeRunFile(outPath);
    RunWriter writer(outPath);
    QJsonObject specJson = m_spec.toJson();
    // The template the prompts were rendered with, as resolved ("auto" names no file).
    specJson.insert(kChatTemplateUsed, format.identity());
    const QString& modelHash = inputHashes.model;
    if (const std::optional<RunInfo> old = writer.runInfo(); old && !old->spec.isEmpty()) {
        // The model is compared by its identity hash below, not by how it was named
        // ("bundled" or a path to the same directory resume the same run); the template
        // by what it resolved to, not by how it was asked for.
        const QJsonObject usedBefore = usedChatTemplate(old->spec);
        if (usedBefore != format.identity())
            throw Error(outPath,
                        QStringLiteral("was run with chat template %1; this run would use %2. "
                                       "Resume it with the same template or write to a new file")
                            .arg(describeUsed(usedBefore), format.describe()));
        if (const QString key = runSpecDifference(old->spec, specJson); !key.isEmpty())
            throw Error(outPath,
                        QStringLiteral("holds a run of another experiment (its spec differs "
                                       "in '%1'); resume it with the same spec or write "
                                       "to a new file")
                            .arg(key));
        if (!old->modelHash.isEmpty() && old->modelHash != modelHash)
            throw Error(outPath, QStringLiteral("was run with another model (%1); resume it with "
                                                "the same model or write to a new file")
                                     .arg(old->modelName));
    }
    const SampleEvaluator evaluator(*model, *tokenizer, m_spec, std::move(configs), &format);
    QSet<QString> finished = writer.completedSampleKeys();
    // The stored samples' meta, read once (not their contexts): the skipped ones count as
    // finished, and every finished one is checked against what it was run with.
    QHash<QString, QJsonObject> storedMeta;
    if (writer.runInfo())
        storedMeta = RunReader(outPath).sampleMetas();
    for (auto s = storedMeta.begin(); s != storedMeta.end(); ++s)
        if (s->contains(kSkippedSample))
            finished.insert(s.key());
    checkResumedInputs(outPath, mine, finished, storedMeta, *tokenizer, inputHashes);
    // Every sample still to run is laid out and checked against the model's positions
    // before the run file records the spec: a template or a length at fault stops here,
    // and the corrected command can still write to the same file.
    {
        std::vector<const PlannedSample*> todo;
        for (const PlannedSample* p : mine)
            if (!finished.contains(p->key))
                todo.push_back(p);
        checkSamples(todo, format, *tokenizer, evaluator);
    }

    RunInfo info;
    info.spec = specJson;
    info.modelName = modelNameOf(modelDir);
    info.modelHash = modelHash;
    info.toolVersion = m_options.toolVersion;
    info.status = QStringLiteral("running");
    writer.setRunInfo(info);
    writer.addConfig(evaluator.fullConfig());
    for (const SweepConfig& c : evaluator.configs())
        writer.addConfig(c.record);

    SweepSummary summary;
    summary.out = outPath;
    summary.total = int(mine.size());
    summary.configs = int(evaluator.configs().size());
    QSet<QString> resumedKeys;
    for (const PlannedSample* p : mine)
        if (finished.contains(p->key))
            resumedKeys.insert(p->key);
    summary.resumed = int(resumedKeys.size());
    summary.done = summary.resumed;

    const auto cancelled = [this] { return m_options.cancel && m_options.cancel->load(); };
    RunningAccuracy fullAcc, compressedAcc;
    addStoredRows(outPath, resumedKeys, evaluator.fullConfig().key, fullAcc, compressedAcc);
    c10::InferenceMode inference;
    QElapsedTimer sweepClock;
    sweepClock.start();
    for (const PlannedSample* planned : mine) {
        if (finished.contains(planned->key))
            continue;
        if (cancelled() || (m_options.maxSamples > 0 && summary.ran >= m_options.maxSamples)) {
            summary.interrupted = true;
            break;
        }
        SweepProgress progress;
        progress.sampleKey = planned->key;
        std::optional<SampleRecord> record;
        QString skipReason;
        SampleInfo skippedInfo;
        skippedInfo.key = planned->key;
        QJsonObject inputs; // empty when the sample could not be read
        try {
            const Sample sample = materializeSample(*planned, m_spec, *tokenizer);
            inputs = sampleInputRecord(sample, inputHashes);
            const PreparedSample prepared = prepareOrFail(sample, *planned, format, *tokenizer);
            skippedInfo = prepared.info;
            record = evaluator.evaluate(prepared, cancelled);
            if (!record) {
                summary.interrupted = true;
                break;
            }
        } catch (const PromptLayoutError&) {
            throw;
        } catch (const Error& e) {
            skipReason = e.message();
        }
        if (!skipReason.isEmpty()) {
            if (skippedInfo.suite.isEmpty() && planned->source < int(m_spec.samples.size()))
                skippedInfo.suite = m_spec.samples[size_t(planned->source)].suite;
            skippedInfo.meta.insert(kSkippedSample, skipReason);
            if (!inputs.isEmpty())
                skippedInfo.meta.insert(kSampleInputs, inputs);
            writer.writeSample(SampleRecord{skippedInfo, {}});
            ++summary.skipped;
            progress.skipReason = skipReason;
        } else {
            poolStoredAttention(*record, m_spec.store.attentionPositions);
            record->sample.meta.insert(kSampleInputs, inputs);
            writer.writeSample(*record);
            for (const ResultRecord& r : record->results)
                (r.configKey == evaluator.fullConfig().key ? fullAcc : compressedAcc)
                    .add(r.correct);
        }
        ++summary.ran;
        ++summary.done;
        if (m_options.progress) {
            progress.done = summary.done;
            progress.total = summary.total;
            progress.ran = summary.ran;
            progress.skipped = summary.skipped;
            progress.elapsedS = double(clock.elapsed()) / 1000.0;
            const double perSample = double(sweepClock.elapsed()) / 1000.0 / summary.ran;
            progress.etaS = perSample * (summary.total - summary.done);
            progress.fullAccuracy = fullAcc.value();
            progress.compressedAccuracy = compressedAcc.value();
            m_options.progress(progress);
        }
    }
    summary.finished = summary.done == summary.total;
    if (summary.finished)
        writer.setStatus(QStringLiteral("finished"));
    summary.seconds = double(clock.elapsed()) / 1000.0;
    summary.fullAccuracy = fullAcc.value();
    summary.compressedAccuracy = compressedAcc.value();
    return summary;
}

} // namespace kvl
