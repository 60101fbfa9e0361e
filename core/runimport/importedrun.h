#pragma once

#include "store/runrecords.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {

// Results made elsewhere (a GPU pipeline's run, a published release), read into
// KVLens's records: what `kvlens-cli import-run` writes as an ordinary run file.

// One file the import read, named in the run's provenance with its SHA-256.
struct ImportedSource
{
    QString path; // as given on the command line (relative paths stay relative)
    QString sha256;
    qint64 records = 0; // rows or records read from it
};

struct ImportedRun
{
    QString format; // the import-run format name: "kvdiagnosis", "kvpress", "rows"
    QString title;  // what the app and the figures call the source, e.g. "KVDiagnosis release"
    QString modelId;
    QString modelRevision;
    std::vector<ImportedSource> sources;
    // What the source did not hold that a complete one would, each said in one line
    // ("diagnostics of ruler8k: data/processed/selected_failures/ruler8k.jsonl is absent").
    QStringList missing;
    // What the source never releases (masks, attention, contexts), said once for the views.
    QString notReleased;
    QJsonObject details;               // format-specific facts (counts, agreement checks)
    std::vector<ConfigRecord> configs; // FullCache first
    std::vector<SampleRecord> samples; // each with its FullCache row first

    // The run file's spec: {"imported": {format, title, model_id, ..., sources: [...]}}.
    QJsonObject provenanceJson() const;
};

// Collects an import's rows and refuses what would make a wrong run, naming where the
// offending record came from ("file:line 12"): a ratio outside [0, 1), a duplicate sample
// or (sample, configuration), a compressed row for a sample without a FullCache row, a
// transition the rows' correctness contradicts. Formats build through it so that every
// format checks the same things the same way.
class ImportedRunBuilder
{
  public:
    ImportedRunBuilder(QString format, QString title);

    // Registers a configuration (idempotent by compressor and ratio) and returns its key.
    // `where` names the record for errors. FullCache's ratio must be 0.
    QString config(const QString& compressor, double ratio, const QJsonObject& params,
                   const QString& where);
    bool hasSample(const QString& key) const { return m_sampleIndex.contains(key); }
    // Adds a sample; a key seen before is an error naming both places.
    void addSample(const SampleInfo& sample, const QString& where);
    // A row of a sample added before; a (sample, config) seen before is an error.
    void addRow(const QString& sampleKey, ResultRecord row, const QString& where);
    // A cell the source planned but could not run (ThinK at 75 %), with the source's reason.
    void addUnsupported(const QString& sampleKey, const QString& configKey, const QString& reason,
                        const QString& where);
    SampleInfo& sample(const QString& key);

    // Checks the rows against their FullCache rows, fills transitions the source did
    // not give, and returns the run (configurations sorted FullCache first, then by
    // compressor and ratio; samples in the order added).
    ImportedRun finish(ImportedRun header);

  private:
    struct PendingRow
    {
        ResultRecord record;
        QString where;
    };
    QString m_format;
    QString m_title;
    std::vector<ConfigRecord> m_configs;
    QHash<QString, qsizetype> m_configIndex; // key -> index
    std::vector<SampleInfo> m_samples;
    QHash<QString, qsizetype> m_sampleIndex;
    QHash<QString, QString> m_sampleWhere;
    std::vector<std::vector<PendingRow>> m_rows; // per sample
};

// Writes the run to `out` (a new file: an existing one is refused) through a temporary
// file renamed at the end, so an error or an interruption leaves nothing at `out`.
void writeImportedRun(const ImportedRun& run, const QString& out, const QString& toolVersion);

} // namespace kvl
