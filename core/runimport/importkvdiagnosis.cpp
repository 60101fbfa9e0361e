// The KVDiagnosis release (ChosenQC/KVDiagnosis, docs/data_format.md) as a run:
// - data/processed/full_population/fullcache.jsonl.gz: one FullCache record per source
//   sample (its key `fullcache_key` = "<dataset>::<sample_id>" is the sample's key here);
// - data/processed/full_population/compressed_runs/<dataset>.jsonl.gz: every planned
//   (sample, method, budget) cell, supported (a row) or unsupported (recorded as such);
// - data/processed/selected_failures/<dataset>.jsonl: the diagnosed C->W rows, joined
//   by (dataset, sample_id, method_name, compression_ratio) for their diagnostics and
//   failure signature.
// The release's compression_ratio is the fraction removed (KVLens's ratio); its
// retained_budget is 1 - ratio, checked on every row.
#include "common/error.h"
#include "diagnose/signature.h"
#include "runimport/pressnames.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <map>
#include <set>

namespace kvl {

namespace {
const char* const kFullCacheFile = "data/processed/full_population/fullcache.jsonl.gz";
const char* const kCompressedDir = "data/processed/full_population/compressed_runs";
const char* const kSelectedDir = "data/processed/selected_failures";

// Field readers: a missing or mistyped required field is an error naming the record
// and the field; an optional one that is null or absent stays missing.
QString requiredString(const QJsonObject& o, const char* field, const QString& where)
{
    const QJsonValue v = o.value(QLatin1String(field));
    if (!v.isString() || v.toString().isEmpty())
        throw Error(where, QStringLiteral("field '%1' is missing or not a string")
                               .arg(QLatin1String(field)));
    return v.toString();
}

double requiredNumber(const QJsonObject& o, const char* field, const QString& where)
{
    const QJsonValue v = o.value(QLatin1String(field));
    if (!v.isDouble())
        throw Error(where, QStringLiteral("field '%1' is missing or not a number")
                               .arg(QLatin1String(field)));
    return v.toDouble();
}

bool requiredBool(const QJsonObject& o, const char* field, const QString& where)
{
    const QJsonValue v = o.value(QLatin1String(field));
    if (!v.isBool())
        throw Error(where, QStringLiteral("field '%1' is missing or not true/false")
                               .arg(QLatin1String(field)));
    return v.toBool();
}

std::optional<double> optionalNumber(const QJsonObject& o, const char* field,
                                     const QString& where)
{
    const QJsonValue v = o.value(QLatin1String(field));
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    if (!v.isDouble())
        throw Error(where, QStringLiteral("field '%1' is not a number").arg(QLatin1String(field)));
    return v.toDouble();
}

QString ratioText(double ratio)
{
    return QString::number(ratio, 'g', 6);
}

// (dataset, sample_id, method_name, compression_ratio): the release's row key.
QString rowKey(const QString& dataset, const QString& sampleId, const QString& method,
               double ratio)
{
    return dataset + QLatin1Char('\x1f') + sampleId + QLatin1Char('\x1f') + method +
           QLatin1Char('\x1f') + ratioText(ratio);
}

// Copies the listed fields that are present and not null into `to`.
void copyFields(const QJsonObject& from, std::initializer_list<const char*> fields,
                QJsonObject& to)
{
    for (const char* f : fields) {
        const QJsonValue v = from.value(QLatin1String(f));
        if (!v.isNull() && !v.isUndefined())
            to.insert(QLatin1String(f), v);
    }
}

struct DiagnosedRow
{
    QJsonObject record;
    QString where;
    bool joined = false;
};

class ReleaseReader
{
  public:
    explicit ReleaseReader(const QString& root) : m_root(root) {}

    ImportedRun read()
    {
        const QString fullPath = path(kFullCacheFile);
        if (!QFileInfo::exists(fullPath))
            throw Error(m_root, QStringLiteral("not a KVDiagnosis release: %1 is absent (the "
                                               "FullCache ledger every run is read against)")
                                    .arg(QLatin1String(kFullCacheFile)));
        readFullCache(fullPath);
        readSelectedFailures();
        readCompressedRuns();
        checkEveryDiagnosedRowJoined();
        return finish();
    }

  private:
    QString path(const char* relative) const { return QDir(m_root).filePath(QLatin1String(relative)); }

    // The file as the provenance names it: relative to the release's root.
    QString shown(const QString& file) const
    {
        return QDir(m_root).filePath(QDir(m_root).relativeFilePath(file));
    }

    void addSource(const QString& file, qint64 records)
    {
        m_run.sources.push_back({shown(file), fileSha256(file), records});
    }

    void noteModel(const QJsonObject& o)
    {
        const QString id = o.value(QLatin1String("model_id")).toString();
        const QString revision = o.value(QLatin1String("model_revision")).toString();
        if (!id.isEmpty())
            m_models.insert(id);
        if (!revision.isEmpty())
            m_revisions.insert(revision);
    }

    void readFullCache(const QString& file)
    {
        qint64 records = 0;
        forEachJsonlRecord(readSourceFile(file), shown(file), [&](const QJsonObject& o, int line) {
            const QString where = recordPlace(shown(file), line);
            SampleInfo s;
            s.key = requiredString(o, "fullcache_key", where);
            s.suite = requiredString(o, "dataset", where);
            s.sourceId = requiredString(o, "sample_id", where);
            s.contextLen = int(optionalNumber(o, "context_length_tokens", where).value_or(0));
            const QJsonValue reference = o.value(QLatin1String("reference_answer"));
            if (reference.isArray()) {
                const QJsonArray answers = reference.toArray();
                s.gold = answers.size() == 1
                             ? answers.first().toString()
                             : QString::fromUtf8(QJsonDocument(answers).toJson(QJsonDocument::Compact));
            } else {
                s.gold = reference.toString();
            }
            copyFields(o,
                       {"prompt_hash", "task_key", "official_task_name", "reference_answer",
                        "full_gold_NLL", "full_run_id", "schema_version"},
                       s.meta);
            m_builder.addSample(s, where);
            noteModel(o);
            ResultRecord full;
            full.configKey = m_fullKey;
            full.correct = requiredBool(o, "full_correct", where);
            full.score = optionalNumber(o, "full_score", where);
            full.answer = o.value(QLatin1String("extracted_answer_full")).toString();
            copyFields(o, {"raw_output_full", "full_gold_NLL", "full_run_id"}, full.extra);
            m_builder.addRow(s.key, full, where);
            ++m_datasets[s.suite].sources;
            ++records;
        });
        addSource(file, records);
    }

    void readSelectedFailures()
    {
        const QDir dir(path(kSelectedDir));
        const QStringList files = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
        for (const QString& name : files) {
            // all_selected_failures.jsonl repeats the per-dataset files: read it only when
            // it is the one file there.
            if (name.startsWith(QLatin1String("all_")) && files.size() > 1)
                continue;
            const QString file = dir.filePath(name);
            qint64 records = 0;
            forEachJsonlRecord(readSourceFile(file), shown(file), [&](const QJsonObject& o, int line) {
                const QString where = recordPlace(shown(file), line);
                const QString dataset = requiredString(o, "dataset", where);
                const QString key = rowKey(dataset, requiredString(o, "sample_id", where),
                                           requiredString(o, "method_name", where),
                                           requiredNumber(o, "compression_ratio", where));
                if (const auto it = m_diagnosed.find(key); it != m_diagnosed.end())
                    throw Error(where, QStringLiteral("duplicate diagnosed row (first at %1)")
                                           .arg(it->second.where));
                m_diagnosed[key] = {o, where};
                m_diagnosedDatasets.insert(dataset);
                ++records;
            });
            addSource(file, records);
        }
    }

    void readCompressedRuns()
    {
        const QDir dir(path(kCompressedDir));
        const QStringList files =
            dir.entryList({QStringLiteral("*.jsonl.gz"), QStringLiteral("*.jsonl")}, QDir::Files,
                          QDir::Name);
        std::set<QString> datasetsRead;
        for (const QString& name : files) {
            const QString file = dir.filePath(name);
            qint64 records = 0;
            forEachJsonlRecord(readSourceFile(file), shown(file), [&](const QJsonObject& o, int line) {
                readCompressedRecord(o, recordPlace(shown(file), line), datasetsRead);
                ++records;
            });
            addSource(file, records);
        }
        for (const auto& [dataset, counts] : m_datasets)
            if (!datasetsRead.count(dataset))
                m_run.missing << QStringLiteral("compressed runs of %1: %2/%1.jsonl.gz is absent "
                                                "(its FullCache rows are imported alone)")
                                     .arg(dataset, QLatin1String(kCompressedDir));
    }

    void readCompressedRecord(const QJsonObject& o, const QString& where,
                              std::set<QString>& datasetsRead)
    {
        const QString dataset = requiredString(o, "dataset", where);
        const QString sampleId = requiredString(o, "sample_id", where);
        const QString method = requiredString(o, "method_name", where);
        const double ratio = requiredNumber(o, "compression_ratio", where);
        const double budget = requiredNumber(o, "retained_budget", where);
        if (std::abs(ratio + budget - 1.0) > 1e-9)
            throw Error(where, QStringLiteral("compression_ratio %1 and retained_budget %2 do not "
                                              "add up to 1")
                                   .arg(ratio)
                                   .arg(budget));
        datasetsRead.insert(dataset);
        const QString sampleKey = requiredString(o, "fullcache_key", where);
        if (!m_builder.hasSample(sampleKey))
            throw Error(where, QStringLiteral("fullcache_key '%1' is not in the FullCache ledger: "
                                              "a compressed run is read against its FullCache run")
                                   .arg(sampleKey));
        const QString kvlensName = kvlensPressName(method);
        QJsonObject params{{QStringLiteral("source_name"), method},
                           {QStringLiteral("retained_budget"), budget}};
        copyFields(o, {"method_display", "method_family"}, params);
        const QString configKey = m_builder.config(kvlensName.isEmpty() ? method : kvlensName,
                                                   ratio, params, where);
        DatasetCounts& counts = m_datasets[dataset];
        ++counts.planned;
        const QString status = requiredString(o, "support_status", where);
        if (status != QLatin1String("supported")) {
            m_builder.addUnsupported(sampleKey, configKey,
                                     o.value(QLatin1String("unsupported_reason")).toString(status),
                                     where);
            ++counts.unsupported;
            return;
        }
        noteModel(o);
        ResultRecord row;
        row.configKey = configKey;
        row.correct = requiredBool(o, "compressed_correct", where);
        row.score = optionalNumber(o, "compressed_score", where);
        row.answer = o.value(QLatin1String("extracted_answer_compressed")).toString();
        const QString transition = o.value(QLatin1String("outcome_transition")).toString();
        if (!transition.isEmpty()) {
            row.transition = transitionFromName(transition);
            if (!row.transition)
                throw Error(where, QStringLiteral("field 'outcome_transition' is '%1', not one of "
                                                  "C->C, C->W, W->C, W->W")
                                       .arg(transition));
        }
        // Every run carries its likelihood drift; the diagnosed rows add the rest.
        row.metrics.deltaNll = optionalNumber(o, "delta_NLL", where);
        row.metrics.gpr = optionalNumber(o, "GPR", where);
        copyFields(o, {"raw_output_compressed", "compressed_gold_NLL", "compressed_run_id", "CIF",
                       "score_drop"},
                   row.extra);
        const auto diagnosed = m_diagnosed.find(rowKey(dataset, sampleId, method, ratio));
        if (diagnosed != m_diagnosed.end())
            joinDiagnostics(diagnosed->second, row, where);
        if (row.transition == Transition::CorrectToWrong)
            ++counts.correctToWrong;
        m_builder.addRow(sampleKey, row, where);
    }

    void joinDiagnostics(DiagnosedRow& d, ResultRecord& row, const QString& where)
    {
        if (!row.transition || *row.transition != Transition::CorrectToWrong ||
            d.record.value(QLatin1String("compressed_correct")).toBool() != row.correct)
            throw Error(d.where, QStringLiteral("a diagnosed row whose run (%1) is not C->W").arg(where));
        d.joined = true;
        try {
            row.metrics = diagnosticRowFromJson(d.record);
        } catch (const Error& e) {
            throw Error(d.where, e.message());
        }
        const QString name = d.record.value(QLatin1String("failure_signature")).toString();
        if (!name.isEmpty()) {
            row.signature = signatureFromName(name);
            if (!row.signature)
                throw Error(d.where, QStringLiteral("field 'failure_signature' is '%1', not a "
                                                    "signature KVLens knows")
                                         .arg(name));
            // The release's signature is the row's; KVLens's rules are checked against it.
            const Signature ours = classifySignature(row.metrics);
            ++m_signaturesChecked;
            if (ours == *row.signature)
                ++m_signaturesAgreeing;
            else if (m_firstDisagreement.isEmpty())
                m_firstDisagreement = QStringLiteral("%1: release %2, KVLens %3")
                                          .arg(d.where, name, signatureName(ours));
        }
        copyFields(d.record,
                   {"primitive_flags", "ERR_slot_status", "ERR_slot_reason", "ECov_slot_status",
                    "ECov_slot_reason", "ECov_slot_threshold", "attention_available",
                    "topk_available", "retention_semantics", "retention_metric_schema",
                    "coverage_applicability_schema", "structural_position_addressability"},
                   row.extra);
    }

    void checkEveryDiagnosedRowJoined() const
    {
        for (const auto& [key, d] : m_diagnosed)
            if (!d.joined)
                throw Error(d.where, QStringLiteral("a diagnosed row without its run in %1 (the "
                                                    "release pairs each with a compressed run)")
                                         .arg(QLatin1String(kCompressedDir)));
    }

    ImportedRun finish()
    {
        ImportedRun header;
        if (m_models.size() == 1)
            header.modelId = *m_models.begin();
        else if (m_models.size() > 1)
            header.modelId = QStringList(m_models.begin(), m_models.end()).join(QStringLiteral(", "));
        if (m_revisions.size() == 1)
            header.modelRevision = *m_revisions.begin();
        header.sources = m_run.sources;
        header.missing = m_run.missing;
        QJsonObject datasets;
        for (const auto& [dataset, counts] : m_datasets) {
            const bool diagnosed = m_diagnosedDatasets.count(dataset) > 0;
            datasets.insert(dataset, QJsonObject{{QStringLiteral("sources"), counts.sources},
                                                 {QStringLiteral("planned_runs"), counts.planned},
                                                 {QStringLiteral("unsupported_runs"), counts.unsupported},
                                                 {QStringLiteral("C_to_W_rows"), counts.correctToWrong},
                                                 {QStringLiteral("diagnosed"), diagnosed}});
            if (!diagnosed && counts.correctToWrong > 0)
                header.missing << QStringLiteral("diagnostics of %1: %2/%1.jsonl is absent, so its "
                                                 "%3 C->W rows carry delta_NLL and GPR only and no "
                                                 "failure signature")
                                      .arg(dataset, QLatin1String(kSelectedDir))
                                      .arg(counts.correctToWrong);
        }
        header.details = {{QStringLiteral("datasets"), datasets},
                          {QStringLiteral("signature_check"),
                           QJsonObject{{QStringLiteral("rows"), m_signaturesChecked},
                                       {QStringLiteral("agree"), m_signaturesAgreeing},
                                       {QStringLiteral("first_disagreement"), m_firstDisagreement}}}};
        header.notReleased = QStringLiteral("no masks, attention or contexts were released");
        return m_builder.finish(header);
    }

    struct DatasetCounts
    {
        qint64 sources = 0;
        qint64 planned = 0;
        qint64 unsupported = 0;
        qint64 correctToWrong = 0;
    };

    QString m_root;
    ImportedRunBuilder m_builder{QStringLiteral("kvdiagnosis"),
                                  QStringLiteral("KVDiagnosis release")};
    ImportedRun m_run; // sources and missing notes as they are found
    QString m_fullKey = m_builder.config(kFullCacheCompressor, 0.0, {}, QString());
    std::map<QString, DiagnosedRow> m_diagnosed;
    std::set<QString> m_diagnosedDatasets;
    std::map<QString, DatasetCounts> m_datasets;
    std::set<QString> m_models, m_revisions;
    qint64 m_signaturesChecked = 0, m_signaturesAgreeing = 0;
    QString m_firstDisagreement;
};
} // namespace

ImportedRun importKvDiagnosisRelease(const QStringList& sources)
{
    if (sources.size() != 1)
        throw Error(QStringLiteral("--format kvdiagnosis reads one release folder (got %1)")
                        .arg(sources.size()));
    if (!QFileInfo(sources.front()).isDir())
        throw Error(sources.front(), QStringLiteral("not a folder: give the release's root "
                                                    "(the folder holding data/processed)"));
    return ReleaseReader(sources.front()).read();
}

} // namespace kvl
