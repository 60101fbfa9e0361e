#include "runimport/importedrun.h"

#include "common/error.h"
#include "store/runmetakeys.h"
#include "store/runwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <algorithm>
#include <cmath>

namespace kvl {

QJsonObject ImportedRun::provenanceJson() const
{
    QJsonArray files;
    for (const ImportedSource& s : sources)
        files.append(QJsonObject{{QStringLiteral("path"), s.path},
                                 {QStringLiteral("sha256"), s.sha256},
                                 {QStringLiteral("records"), s.records}});
    QJsonObject imported{{QStringLiteral("format"), format},
                         {QStringLiteral("title"), title},
                         {QStringLiteral("sources"), files},
                         {QStringLiteral("missing"), QJsonArray::fromStringList(missing)}};
    if (!modelId.isEmpty())
        imported.insert(QStringLiteral("model_id"), modelId);
    if (!modelRevision.isEmpty())
        imported.insert(QStringLiteral("model_revision"), modelRevision);
    if (!notReleased.isEmpty())
        imported.insert(QStringLiteral("not_released"), notReleased);
    if (!details.isEmpty())
        imported.insert(QStringLiteral("details"), details);
    return {{QStringLiteral("imported"), imported}};
}

ImportedRunBuilder::ImportedRunBuilder(QString format, QString title)
    : m_format(std::move(format)), m_title(std::move(title))
{}

QString ImportedRunBuilder::config(const QString& compressor, double ratio,
                                   const QJsonObject& params, const QString& where)
{
    if (compressor.isEmpty())
        throw Error(where, QStringLiteral("the row names no compressor"));
    if (!std::isfinite(ratio) || ratio < 0.0 || ratio >= 1.0)
        throw Error(where, QStringLiteral("ratio %1 of %2 is outside [0, 1): a ratio is the "
                                          "fraction of the cache removed")
                               .arg(ratio)
                               .arg(compressor));
    const bool full = compressor == kFullCacheCompressor;
    if (full && ratio != 0.0)
        throw Error(where, QStringLiteral("FullCache with ratio %1: FullCache removes nothing "
                                          "(ratio 0)")
                               .arg(ratio));
    const QString key = ConfigRecord::makeKey(compressor, ratio);
    if (!m_configIndex.contains(key)) {
        ConfigRecord c;
        c.key = key;
        c.compressor = compressor;
        c.ratio = ratio;
        c.params = params;
        m_configIndex.insert(key, qsizetype(m_configs.size()));
        m_configs.push_back(c);
    }
    return key;
}

void ImportedRunBuilder::addSample(const SampleInfo& sample, const QString& where)
{
    if (sample.key.isEmpty())
        throw Error(where, QStringLiteral("the record names no sample"));
    if (const auto it = m_sampleWhere.constFind(sample.key); it != m_sampleWhere.constEnd())
        throw Error(where, QStringLiteral("duplicate sample '%1' (first at %2)")
                               .arg(sample.key, it.value()));
    m_sampleIndex.insert(sample.key, qsizetype(m_samples.size()));
    m_sampleWhere.insert(sample.key, where);
    m_samples.push_back(sample);
    m_rows.emplace_back();
}

SampleInfo& ImportedRunBuilder::sample(const QString& key)
{
    const auto it = m_sampleIndex.constFind(key);
    if (it == m_sampleIndex.constEnd())
        throw Error(QStringLiteral("import: sample '%1' was never added").arg(key));
    return m_samples[size_t(*it)];
}

void ImportedRunBuilder::addRow(const QString& sampleKey, ResultRecord row, const QString& where)
{
    const auto it = m_sampleIndex.constFind(sampleKey);
    if (it == m_sampleIndex.constEnd())
        throw Error(where, QStringLiteral("row for sample '%1', which the source does not "
                                          "list")
                               .arg(sampleKey));
    if (!m_configIndex.contains(row.configKey))
        throw Error(where, QStringLiteral("configuration '%1' is not registered")
                               .arg(row.configKey));
    std::vector<PendingRow>& rows = m_rows[size_t(*it)];
    for (const PendingRow& r : rows)
        if (r.record.configKey == row.configKey)
            throw Error(where, QStringLiteral("duplicate row: sample '%1' under %2 (first at %3)")
                                   .arg(sampleKey, row.configKey, r.where));
    rows.push_back({std::move(row), where});
}

void ImportedRunBuilder::addUnsupported(const QString& sampleKey, const QString& configKey,
                                        const QString& reason, const QString& where)
{
    SampleInfo& s = sample(sampleKey);
    QJsonObject cells = s.meta.value(QString(kUnsupportedConfigs)).toObject();
    if (cells.contains(configKey))
        throw Error(where, QStringLiteral("duplicate row: sample '%1' under %2 (unsupported "
                                          "twice)")
                               .arg(sampleKey, configKey));
    for (const PendingRow& r : m_rows[size_t(m_sampleIndex.value(sampleKey))])
        if (r.record.configKey == configKey)
            throw Error(where, QStringLiteral("sample '%1' under %2 is both run (%3) and "
                                              "unsupported")
                                   .arg(sampleKey, configKey, r.where));
    cells.insert(configKey, reason.isEmpty() ? QStringLiteral("unsupported") : reason);
    s.meta.insert(QString(kUnsupportedConfigs), cells);
}

ImportedRun ImportedRunBuilder::finish(ImportedRun run)
{
    run.format = m_format;
    run.title = m_title;
    QHash<QString, bool> isFull;
    for (const ConfigRecord& c : m_configs)
        isFull.insert(c.key, c.isFullCache());
    run.samples.clear();
    run.samples.reserve(m_samples.size());
    for (size_t i = 0; i < m_samples.size(); ++i) {
        std::vector<PendingRow>& rows = m_rows[i];
        const auto full = std::find_if(rows.begin(), rows.end(), [&](const PendingRow& r) {
            return isFull.value(r.record.configKey);
        });
        SampleRecord record;
        record.sample = m_samples[i];
        if (full == rows.end()) {
            // A sample the source lists without any row (every cell unsupported) is kept
            // only when it has no compressed row either.
            const auto compressed = std::find_if(rows.begin(), rows.end(), [&](const PendingRow& r) {
                return !isFull.value(r.record.configKey);
            });
            if (compressed != rows.end())
                throw Error(compressed->where,
                            QStringLiteral("a row under %1 for sample '%2', which has no "
                                           "FullCache row: a compressed row is read against "
                                           "its FullCache row")
                                .arg(compressed->record.configKey, record.sample.key));
        } else {
            const bool fullCorrect = full->record.correct;
            record.results.push_back(full->record);
            record.results.back().transition.reset();
            for (PendingRow& r : rows) {
                if (isFull.value(r.record.configKey))
                    continue;
                const Transition t = transitionOf(fullCorrect, r.record.correct);
                if (r.record.transition && *r.record.transition != t)
                    throw Error(r.where,
                                QStringLiteral("transition %1 contradicts the rows' correctness "
                                               "(FullCache %2, %3 %4)")
                                    .arg(transitionName(*r.record.transition),
                                         fullCorrect ? QStringLiteral("correct")
                                                     : QStringLiteral("wrong"),
                                         r.record.configKey,
                                         r.record.correct ? QStringLiteral("correct")
                                                          : QStringLiteral("wrong")));
                r.record.transition = t;
                if (t != Transition::CorrectToWrong)
                    r.record.signature.reset(); // a signature describes a C→W row only
                record.results.push_back(std::move(r.record));
            }
        }
        run.samples.push_back(std::move(record));
    }
    run.configs = m_configs;
    std::stable_sort(run.configs.begin(), run.configs.end(),
                     [](const ConfigRecord& a, const ConfigRecord& b) {
                         if (a.isFullCache() != b.isFullCache())
                             return a.isFullCache();
                         return a.compressor != b.compressor ? a.compressor < b.compressor
                                                             : a.ratio < b.ratio;
                     });
    return run;
}

void writeImportedRun(const ImportedRun& run, const QString& out, const QString& toolVersion)
{
    if (QFileInfo::exists(out))
        throw Error(out, QStringLiteral("the output file exists already; import-run writes a "
                                        "new file"));
    const QFileInfo target(out);
    if (!target.absoluteDir().exists())
        throw Error(out, QStringLiteral("its folder does not exist"));
    // Beside the target, so the rename stays on one file system. SQLite's -wal and -shm
    // files go with it.
    const QString part = out + QStringLiteral(".importing");
    const auto removePart = [&] {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            QFile::remove(part + QLatin1String(suffix));
    };
    removePart();
    try {
        {
            RunWriter writer(part);
            RunInfo info;
            info.spec = run.provenanceJson();
            info.modelName = run.modelId; // empty when the source does not name it
            info.modelHash = run.modelRevision;
            info.toolVersion = toolVersion;
            info.status = QStringLiteral("finished");
            writer.setRunInfo(info);
            for (const ConfigRecord& c : run.configs)
                writer.addConfig(c);
            for (const SampleRecord& s : run.samples)
                writer.writeSample(s);
        }
        // The writer closed: its WAL is checkpointed into the file, which is now whole.
        if (!QFile::rename(part, out))
            throw Error(out, QStringLiteral("cannot move the finished import into place"));
    } catch (...) {
        removePart();
        throw;
    }
    removePart();
}

} // namespace kvl
