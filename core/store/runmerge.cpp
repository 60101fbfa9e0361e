#include "store/runmerge.h"

#include "common/error.h"
#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/runwriter.h"
#include "store/sampleinputs.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

#include <QFileInfo>
#include <map>

namespace kvl {

namespace {
using ConfigMap = std::map<QString, std::pair<QString, double>>; // key -> (compressor, ratio)

ConfigMap configMap(RunReader& reader)
{
    ConfigMap map;
    for (const ConfigRecord& c : reader.configs())
        map[c.key] = {c.compressor, c.ratio};
    return map;
}

QStringList columnsOf(SqliteDatabase& db, const QString& table)
{
    QStringList columns;
    SqliteStatement st = db.prepare(QStringLiteral("PRAGMA main.table_info(%1)").arg(table));
    while (st.step())
        columns << st.columnText(1);
    return columns;
}

// Copies the rows of one per-(sample, config) table from the attached "src",
// mapping ids through the sample and config keys.
void copyTable(SqliteDatabase& db, const QString& table)
{
    QStringList columns = columnsOf(db, table);
    columns.removeAll(QStringLiteral("sample_id"));
    columns.removeAll(QStringLiteral("config_id"));
    QStringList source;
    for (const QString& c : columns)
        source << QStringLiteral("t.") + c;
    db.exec(QStringLiteral("INSERT OR IGNORE INTO main.%1 (sample_id, config_id, %2) "
                           "SELECT ms.id, mc.id, %3 FROM src.%1 t "
                           "JOIN src.sample ss ON ss.id = t.sample_id "
                           "JOIN main.sample ms ON ms.sample_key = ss.sample_key "
                           "JOIN src.config sc ON sc.id = t.config_id "
                           "JOIN main.config mc ON mc.config_key = sc.config_key")
                .arg(table, columns.join(QLatin1String(", ")), source.join(QLatin1String(", "))));
}

// Where each sample's kSampleInputs record was first seen: a sample in two inputs must
// have been read and run the same way in both, or the merged run would mix datasets.
class SampleInputsSeen
{
  public:
    void add(const QString& input, RunReader& reader)
    {
        const QHash<QString, QJsonObject> metas = reader.sampleMetas();
        QStringList keys = metas.keys();
        keys.sort(); // the first differing sample named is the same every time
        for (const QString& key : keys) {
            const QJsonObject& meta = metas[key];
            if (!meta.contains(kSampleInputs))
                continue;
            const QJsonObject inputs = meta.value(kSampleInputs).toObject();
            const auto it = m_first.find(key);
            if (it == m_first.end()) {
                m_first.emplace(key, std::make_pair(input, inputs));
                continue;
            }
            if (const QString field = firstDifferingInput(it->second.second, inputs);
                !field.isEmpty())
                throw Error(input, QStringLiteral("its sample '%1' was run with another %2 than "
                                                  "in %3; only shards of one experiment on the "
                                                  "same data can be merged")
                                       .arg(key, field, it->second.first));
        }
    }

  private:
    std::map<QString, std::pair<QString, QJsonObject>> m_first; // key -> (file, record)
};

// The keys that legitimately differ between shards of one experiment, removed.
QJsonObject withoutShardKeys(const QJsonObject& spec)
{
    QJsonObject s = spec;
    for (const char* key : {"shard", "out", "threads"})
        s.remove(QLatin1String(key));
    return s;
}
} // namespace

QJsonObject specForComparison(const QJsonObject& spec)
{
    QJsonObject s = withoutShardKeys(spec);
    // Runs written before chat templates existed record no template: they used the base
    // layout, which a newer run records as {"template": "none"}. Both compare equal.
    const QLatin1String used("chat_template_used");
    if (!s.contains(used) || s.value(used).toObject().isEmpty())
        s.insert(used, QJsonObject{{QStringLiteral("template"), QStringLiteral("none")}});
    return s;
}

void mergeRuns(const QStringList& inputs, const QString& output)
{
    if (inputs.isEmpty())
        throw Error(output, QStringLiteral("nothing to merge (no input run files)"));
    if (QFileInfo::exists(output))
        throw Error(output,
                    QStringLiteral("the output file exists already; merge writes a new file"));

    RunInfo first;
    ConfigMap configs;
    std::vector<ConfigRecord> configList;
    bool allFinished = true;
    SampleInputsSeen samplesSeen;
    for (qsizetype i = 0; i < inputs.size(); ++i) {
        if (QFileInfo(inputs[i]).absoluteFilePath() == QFileInfo(output).absoluteFilePath())
            throw Error(output, QStringLiteral("the output is also an input"));
        RunReader reader(inputs[i]);
        const RunInfo info = reader.runInfo();
        allFinished = allFinished && info.status == QLatin1String("finished");
        if (i == 0) {
            first = info;
            configs = configMap(reader);
            configList = reader.configs();
            samplesSeen.add(inputs[i], reader);
            continue;
        }
        if (specForComparison(info.spec) != specForComparison(first.spec))
            throw Error(inputs[i], QStringLiteral("its experiment spec differs from that of %1; "
                                                  "only shards of one experiment can be merged")
                                       .arg(inputs[0]));
        if (info.modelHash != first.modelHash)
            throw Error(inputs[i], QStringLiteral("its model (hash %1) differs from that of %2 "
                                                  "(hash %3)")
                                       .arg(info.modelHash, inputs[0], first.modelHash));
        if (configMap(reader) != configs)
            throw Error(inputs[i], QStringLiteral("its configurations (compressor x ratio) differ "
                                                  "from those of %1")
                                       .arg(inputs[0]));
        samplesSeen.add(inputs[i], reader);
    }

    {
        RunWriter writer(output);
        RunInfo info = first;
        info.spec = withoutShardKeys(first.spec);
        info.status = allFinished ? QStringLiteral("finished") : QStringLiteral("running");
        info.createdAt.clear();
        info.updatedAt.clear();
        writer.setRunInfo(info);
        for (const ConfigRecord& c : configList)
            writer.addConfig(c);
    }

    SqliteDatabase db(output, SqliteDatabase::Mode::ReadWriteCreate);
    for (const QString& input : inputs) {
        SqliteStatement attach = db.prepare(QStringLiteral("ATTACH DATABASE ? AS src"));
        attach.bind(1, input);
        attach.run();
        try {
            db.exec(QStringLiteral("BEGIN"));
            db.exec(QStringLiteral(
                "INSERT OR IGNORE INTO main.sample (sample_key, suite, source_id, context_len, "
                "question_len, spans_json, gold, meta_json) SELECT sample_key, suite, source_id, "
                "context_len, question_len, spans_json, gold, meta_json FROM src.sample "
                "ORDER BY id"));
            for (const char* table : {"result", "mask", "attention", "retrieval", "intervention"})
                // A read-only input of an older schema lacks the later tables (retrieval).
                if (db.scalarInt(QStringLiteral("SELECT COUNT(*) FROM src.sqlite_schema WHERE "
                                                "type = 'table' AND name = '%1'")
                                     .arg(QLatin1String(table))) > 0)
                    copyTable(db, QLatin1String(table));
            db.exec(QStringLiteral("COMMIT"));
        } catch (...) {
            db.rollbackQuietly();
            db.exec(QStringLiteral("DETACH DATABASE src"));
            throw;
        }
        db.exec(QStringLiteral("DETACH DATABASE src"));
    }
}

} // namespace kvl
