// KVDiagnosis (ChosenQC/KVDiagnosis, data/processed/selected_failures/*.jsonl and
// data/examples/selected_failures_sample.jsonl): one row per (source sample, method,
// ratio) with `dataset`, `sample_id`, `task_key`, `method_name`, `compression_ratio`,
// `retained_budget`, `reference_answer`, the paired outcomes and the diagnostics
// (`ERR_slot`, `ECov_slot`, `delta_NLL`, `GPR`, `KL`, `TopK`, `EAR`, `coverage_type`,
// `failure_signature`, ...). The rows hold no context or question, so they are joined
// to the samples they were run on (--source, KVLens JSONL): a row's sample_id matches a
// source sample's id, or `<task>_<index as 6 digits>` built from the source's
// meta.task and meta.index (KVDiagnosis' naming: niah_single_1_000003,
// qasper_000001). Each source sample with rows is written once, its rows' diagnostics
// listed in meta.kvdiagnosis.
#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"
#include "tasks/samplejsonl.h"

#include <QHash>

namespace kvl {

std::vector<Sample> importKvDiagnosis(const QString& path, const ImportOptions& options)
{
    if (options.sourcePath.isEmpty())
        throw Error(path, QStringLiteral("KVDiagnosis rows hold no context or question: give "
                                         "--source F.jsonl, the samples they were run on "
                                         "(imported with --format ruler, longbench, ...)"));
    const std::vector<Sample> sources = readSamples(options.sourcePath);
    QHash<QString, qsizetype> byName;
    for (qsizetype i = 0; i < qsizetype(sources.size()); ++i) {
        const Sample& s = sources[size_t(i)];
        const QString task = s.meta.value(QStringLiteral("task")).toString();
        const QJsonValue index = s.meta.value(QStringLiteral("index"));
        const std::optional<qint64> number = jsonWholeNumber(index);
        if (!task.isEmpty() && number)
            byName.insert(QStringLiteral("%1_%2").arg(task).arg(*number, 6, 10, QLatin1Char('0')),
                          i);
    }
    for (qsizetype i = 0; i < qsizetype(sources.size()); ++i)
        byName.insert(sources[size_t(i)].id, i); // an exact id wins over a built name

    static const char* const kCopied[] = {"method_name",
                                          "method_family",
                                          "compression_ratio",
                                          "retained_budget",
                                          "full_correct",
                                          "compressed_correct",
                                          "full_score",
                                          "compressed_score",
                                          "coverage_type",
                                          "ERR_slot",
                                          "ECov_slot",
                                          "delta_NLL",
                                          "GPR",
                                          "KL",
                                          "TopK",
                                          "EAR",
                                          "gold_rank_shift",
                                          "failure_signature",
                                          "primitive_flags",
                                          "extracted_answer_full",
                                          "extracted_answer_compressed"};

    std::vector<qsizetype> order;
    QHash<qsizetype, QJsonArray> rowsOf;
    QHash<qsizetype, QJsonValue> referenceOf;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        const QString sampleId = r.string(QStringLiteral("sample_id"));
        r.setId(sampleId);
        r.string(QStringLiteral("dataset"));
        r.string(QStringLiteral("method_name"));
        const QJsonValue budget = r.value(QStringLiteral("retained_budget"));
        if (!budget.isDouble())
            r.fail(QStringLiteral("retained_budget"),
                   QStringLiteral("expected a number, got %1").arg(jsonTypeName(budget)));
        const QJsonValue reference = r.value(QStringLiteral("reference_answer"));
        if (!reference.isArray() && !reference.isString())
            r.fail(QStringLiteral("reference_answer"),
                   QStringLiteral("expected a list of strings or a string, got %1")
                       .arg(jsonTypeName(reference)));
        const auto it = byName.constFind(sampleId);
        if (it == byName.constEnd())
            r.fail(QStringLiteral("sample_id"),
                   QStringLiteral("'%1' matches no sample of %2 (by id, or <task>_<index> from "
                                  "meta.task and meta.index)")
                       .arg(sampleId, options.sourcePath));
        QJsonObject row;
        for (const char* key : kCopied) {
            const QJsonValue v = record.object.value(QLatin1String(key));
            if (!v.isUndefined())
                row.insert(QLatin1String(key), v);
        }
        if (!rowsOf.contains(*it)) {
            order.push_back(*it);
            referenceOf.insert(*it, reference);
        }
        rowsOf[*it].append(row);
    }

    std::vector<Sample> samples;
    for (const qsizetype i : order) {
        Sample s = sources[size_t(i)];
        s.meta.insert(QStringLiteral("kvdiagnosis"), rowsOf.value(i));
        s.meta.insert(QStringLiteral("kvdiagnosis_reference"), referenceOf.value(i));
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
