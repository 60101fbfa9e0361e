// Result folders of NVIDIA kvpress's evaluation/evaluate.py as a run. evaluate.py writes
// one folder per dataset x model x press x ratio (EvaluationConfig.get_results_dir:
// "<dataset>__<data_dir>__<model with / as -->__<press_name>__<ratio:.2f>[__...]", a
// re-run nested as "<that>/<n>") holding
// - predictions.csv: the dataset's rows without their context, plus predicted_answer
//   and (for presses that set one) compression_ratio;
// - metrics.json: the dataset's scorer's output (benchmarks/<dataset>/calculate_metrics.py);
// - config.yaml: the EvaluationConfig (dataset, data_dir, model, press_name,
//   compression_ratio or threshold / head_compression_ratio, press_init_command, ...).
// press_name "no_press" (ratio 0) is FullCache. Rows are matched across folders by a
// hash of every predictions.csv column but the two evaluate.py adds: the dataset's row.
#include "common/error.h"
#include "common/jsonio.h"
#include "runimport/kvpressscoring.h"
#include "runimport/kvpressyaml.h"
#include "runimport/pressnames.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <map>

namespace kvl {

namespace {
const QString kNoPress = QStringLiteral("no_press");
const QString kPrediction = QStringLiteral("predicted_answer");
const QString kRowRatio = QStringLiteral("compression_ratio");
// The columns evaluate.py adds to the dataset's (and the one it drops): not the row's identity.
const QStringList kRunColumns = {kPrediction, kRowRatio, QStringLiteral("context")};
// config.yaml's press settings, kept in the configuration's params.
const char* const kPressSettings[] = {"press_init_command",       "key_channel_compression_ratio",
                                      "head_compression_ratio",   "threshold",
                                      "compression_interval",     "target_size",
                                      "hidden_states_buffer_size"};
// Its generation settings, kept in the folder's details.
const char* const kRunSettings[] = {"fraction",    "max_new_tokens", "max_context_length",
                                    "query_aware", "needle_depth",   "seed",
                                    "fp8"};

// What a folder's name says (get_results_dir), for a config.yaml that lacks a field.
struct FolderName
{
    QString dataset, dataDir, model, press;
    std::optional<double> ratio;
};

FolderName parseFolderName(const QString& dir)
{
    const QFileInfo info(dir);
    QString name = info.fileName();
    // A re-run into an existing folder goes to "<folder>/<n>".
    static const QRegularExpression rerun(QStringLiteral("^[0-9]+$"));
    if (rerun.match(name).hasMatch())
        name = QFileInfo(info.path()).fileName();
    const QStringList parts = name.split(QStringLiteral("__"));
    static const QRegularExpression ratio(QStringLiteral("^[0-9]+\\.[0-9]{2}$"));
    FolderName f;
    for (qsizetype i = 3; i < parts.size() && i <= 4; ++i) {
        if (!ratio.match(parts[i]).hasMatch())
            continue;
        f.dataset = parts[0];
        f.dataDir = i == 4 ? parts[1] : QString();
        f.model = QString(parts[i - 2]).replace(QStringLiteral("--"), QStringLiteral("/"));
        f.press = parts[i - 1];
        f.ratio = parts[i].toDouble();
        break;
    }
    return f;
}

bool isResultFolder(const QDir& d)
{
    return d.exists(QStringLiteral("predictions.csv")) || d.exists(QStringLiteral("config.yaml")) ||
           d.exists(QStringLiteral("metrics.json"));
}

// `dir` when it is a result folder, and every result folder below it (re-runs nest).
void collectResultFolders(const QString& dir, QStringList& out)
{
    const QDir d(dir);
    if (isResultFolder(d))
        out << QDir::cleanPath(dir);
    for (const QString& sub : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        collectResultFolders(d.filePath(sub), out);
}

// One result folder, read and checked.
struct Folder
{
    QString dir, predictions, config, metrics;
    YamlMapping yaml;
    CsvTable table;
    QString dataset, dataDir, suite, model, revision, press, compressor, configKey;
    double ratio = 0.0;
    QString ratioFrom;
    bool full = false;
    QJsonObject params, settings;
    QStringList notes; // fields taken from elsewhere than config.yaml

    QString configPlace(const QString& key) const
    {
        const int line = yaml.lineOf(key);
        return line > 0 ? recordPlace(config, line) : config;
    }
};

// Per-folder sums for the check against metrics.json.
struct Tally
{
    std::map<QString, std::pair<double, int>> perTask; // task -> (sum of row scores, rows)
    double correct = 0.0;
    int rows = 0;
};

class KvpressReader
{
  public:
    ImportedRun read(const QStringList& sources)
    {
        if (sources.isEmpty())
            throw Error(QStringLiteral("--format kvpress needs result folders of kvpress's "
                                       "evaluation (or a folder holding them)"));
        for (const QString& dir : findFolders(sources))
            m_folders.push_back(readFolder(dir));
        checkOneModel();
        checkFullCachePerSuite();
        // FullCache folders first: their rows define the samples the others are read against.
        std::stable_sort(m_folders.begin(), m_folders.end(),
                         [](const Folder& a, const Folder& b) { return a.full > b.full; });
        for (Folder& f : m_folders)
            importRows(f);
        return finish();
    }

  private:
    static QStringList findFolders(const QStringList& sources)
    {
        QStringList folders;
        for (const QString& src : sources) {
            if (!QFileInfo(src).isDir())
                throw Error(src, QStringLiteral("not a folder: give kvpress result folders (each "
                                                "with predictions.csv and config.yaml) or a "
                                                "folder holding them"));
            const qsizetype before = folders.size();
            collectResultFolders(src, folders);
            if (folders.size() == before)
                throw Error(src, QStringLiteral("no kvpress result folder in it: none holds "
                                                "predictions.csv, config.yaml or metrics.json"));
        }
        folders.removeDuplicates();
        return folders;
    }

    Folder readFolder(const QString& dir)
    {
        Folder f;
        f.dir = dir;
        const QDir d(dir);
        f.predictions = d.filePath(QStringLiteral("predictions.csv"));
        f.config = d.filePath(QStringLiteral("config.yaml"));
        f.metrics = d.filePath(QStringLiteral("metrics.json"));
        if (!QFileInfo(f.config).isFile())
            throw Error(f.config,
                        QStringLiteral("absent: a kvpress result folder holds config.yaml "
                                       "(the dataset, model, press and ratio of its rows)"));
        if (!QFileInfo(f.predictions).isFile())
            throw Error(f.predictions, QStringLiteral("absent: a kvpress result folder holds "
                                                      "predictions.csv (its rows)"));
        f.yaml = parseYamlMapping(readSourceFile(f.config), f.config);
        f.table = parseCsvTable(readSourceFile(f.predictions), f.predictions);
        readSettings(f, parseFolderName(dir));
        return f;
    }

    // A config.yaml text field; when absent or null, the folder name's value (said in the
    // folder's notes); an error naming the field when neither has one and it is required.
    static QString configField(Folder& f, const char* key, const QString& fromName, bool required)
    {
        const QString name = QLatin1String(key);
        const QJsonValue v = f.yaml.values.value(name);
        if (!v.isNull() && !v.isUndefined()) {
            if (v.isObject() || v.isArray())
                throw Error(f.configPlace(name), QStringLiteral("field '%1' is a collection, not a "
                                                                "name")
                                                     .arg(name));
            return jsonScalarText(v);
        }
        if (!fromName.isEmpty()) {
            f.notes << QStringLiteral("%1 has no %2: '%3' taken from the folder name")
                           .arg(f.config, name, fromName);
            return fromName;
        }
        if (required)
            throw Error(f.configPlace(name), QStringLiteral("field '%1' is missing (and the folder "
                                                            "name does not give it)")
                                                 .arg(name));
        return {};
    }

    void readSettings(Folder& f, const FolderName& name)
    {
        f.dataset = configField(f, "dataset", name.dataset, true);
        // data_dir null is normal (most datasets have none): the folder name is asked
        // only when config.yaml lacks the field altogether.
        f.dataDir = f.yaml.values.contains(QStringLiteral("data_dir"))
                        ? jsonScalarText(f.yaml.values.value(QStringLiteral("data_dir")))
                        : configField(f, "data_dir", name.dataDir, false);
        f.model = configField(f, "model", name.model, false);
        f.revision = jsonScalarText(f.yaml.values.value(QStringLiteral("model_kwargs"))
                                    .toObject()
                                    .value(QStringLiteral("revision")));
        f.press = configField(f, "press_name", name.press, true);
        f.full = f.press == kNoPress;
        readRatio(f, name);
        f.suite = f.dataset;
        if (!f.dataDir.isEmpty())
            f.suite += QLatin1Char('/') + f.dataDir;
        // The haystack's length is the needle benchmark's "data_dir": the rows do not say it.
        const QString maxContext =
            jsonScalarText(f.yaml.values.value(QStringLiteral("max_context_length")));
        if (f.dataset == QLatin1String("needle_in_haystack") && !maxContext.isEmpty())
            f.suite += QLatin1Char('/') + maxContext;
        f.params.insert(QStringLiteral("source_name"), f.press);
        for (const char* key : kPressSettings) {
            const QJsonValue v = f.yaml.values.value(QLatin1String(key));
            if (!f.full && !v.isNull() && !v.isUndefined())
                f.params.insert(QLatin1String(key), v);
        }
        if (!f.full && f.yaml.values.value(QStringLiteral("query_aware")).toBool())
            f.params.insert(QStringLiteral("query_aware"), true);
        for (const char* key : kRunSettings) {
            const QJsonValue v = f.yaml.values.value(QLatin1String(key));
            if (!v.isNull() && !v.isUndefined())
                f.settings.insert(QLatin1String(key), v);
        }
        f.compressor = f.full ? kFullCacheCompressor : kvlensPressName(f.press);
        if (f.compressor.isEmpty())
            f.compressor = f.press;
    }

    // config.yaml's compression_ratio; for presses kvpress runs by a threshold or a head
    // ratio (DMS, DuoAttention: config.yaml then has no compression_ratio) the mean of
    // the ratios the press measured, from predictions.csv; else the folder name's.
    void readRatio(Folder& f, const FolderName& name)
    {
        const QString key = QStringLiteral("compression_ratio");
        const QJsonValue v = f.yaml.values.value(key);
        if (f.full) {
            f.ratio = 0.0; // evaluate.py sets no_press's ratio to 0
            f.ratioFrom = QStringLiteral("no_press");
            return;
        }
        if (!v.isNull() && !v.isUndefined()) {
            if (!v.isDouble())
                throw Error(f.configPlace(key), QStringLiteral("field 'compression_ratio' is '%1', "
                                                               "not a number")
                                                    .arg(jsonScalarText(v)));
            setRatio(f, v.toDouble(), QStringLiteral("config.yaml"), f.configPlace(key));
            return;
        }
        if (const auto measured = measuredRatio(f)) {
            setRatio(f, *measured,
                     QStringLiteral("predictions.csv compression_ratio (mean measured)"),
                     recordPlace(f.predictions, 1));
            f.notes << QStringLiteral("%1 has no compression_ratio (the press runs by threshold or "
                                      "head ratio): the ratio is the mean of predictions.csv's "
                                      "measured compression_ratio")
                           .arg(f.config);
            return;
        }
        if (!name.ratio)
            throw Error(f.configPlace(key), QStringLiteral("field 'compression_ratio' is missing "
                                                           "(and neither predictions.csv nor the "
                                                           "folder name gives a ratio)"));
        setRatio(f, *name.ratio, QStringLiteral("folder name"), f.dir);
        f.notes << QStringLiteral("%1 has no compression_ratio: %2 taken from the folder name")
                       .arg(f.config)
                       .arg(*name.ratio);
    }

    static void setRatio(Folder& f, double ratio, const QString& from, const QString& where)
    {
        if (!std::isfinite(ratio) || ratio < 0.0 || ratio >= 1.0)
            throw Error(where, QStringLiteral("field 'compression_ratio' is %1, outside [0, 1): a "
                                              "ratio is the fraction of the cache removed")
                                   .arg(ratio));
        f.ratio = ratio;
        f.ratioFrom = from;
    }

    static std::optional<double> measuredRatio(const Folder& f)
    {
        const int column = f.table.column(kRowRatio);
        if (column < 0 || f.table.rows.empty())
            return std::nullopt;
        double sum = 0.0;
        for (size_t i = 0; i < f.table.rows.size(); ++i) {
            bool ok = false;
            const double r = f.table.rows[i][column].toDouble(&ok);
            if (!ok)
                throw Error(recordPlace(f.predictions, f.table.lines[i]),
                            QStringLiteral("field 'compression_ratio' is '%1', not a number")
                                .arg(f.table.rows[i][column]));
            sum += r;
        }
        return sum / double(f.table.rows.size());
    }

    void checkOneModel() const
    {
        const Folder* first = nullptr;
        for (const Folder& f : m_folders) {
            if (f.model.isEmpty())
                continue;
            if (!first) {
                first = &f;
            } else if (f.model != first->model) {
                throw Error(f.configPlace(QStringLiteral("model")),
                            QStringLiteral("field 'model' is '%1' but %2 names '%3': one import "
                                           "holds one model's runs")
                                .arg(f.model, first->config, first->model));
            }
        }
    }

    void checkFullCachePerSuite() const
    {
        std::map<QString, QStringList> folders;
        std::map<QString, bool> hasFull;
        for (const Folder& f : m_folders) {
            folders[f.suite] << f.dir;
            hasFull[f.suite] = hasFull[f.suite] || f.full;
        }
        for (const auto& [suite, dirs] : folders)
            if (!hasFull[suite])
                throw Error(
                    QStringLiteral("--format kvpress"),
                    QStringLiteral("no FullCache folder (press_name: no_press) for %1 among "
                                   "%2: a compressed row is read against its FullCache row")
                        .arg(suite, dirs.join(QStringLiteral(", "))));
    }

    QString registerConfig(Folder& f)
    {
        f.configKey = m_builder.config(f.compressor, f.ratio, f.params, f.configPlace(kRowRatio));
        const auto first = m_configFolder.find(f.configKey);
        if (first == m_configFolder.end()) {
            m_configFolder.emplace(f.configKey, &f);
        } else if (first->second->params != f.params) {
            // One configuration keeps one set of settings (the first folder's); the
            // difference is said rather than refused (kvpress versions word
            // press_init_command differently).
            m_run.missing << QStringLiteral("%1: the press settings in %2 differ from those in %3; "
                                            "the configuration keeps %3's")
                                 .arg(f.configKey, f.config, first->second->config);
        }
        return f.configKey;
    }

    static void requireColumn(const Folder& f, const QString& column, const QString& why)
    {
        if (f.table.column(column) < 0)
            throw Error(recordPlace(f.predictions, 1),
                        QStringLiteral("field '%1' is missing: predictions.csv has no '%1' column "
                                       "(%2)")
                            .arg(column, why));
    }

    // The gold answer(s) of a row: a list literal where the dataset keeps a list (or may,
    // for the exact-match datasets), else the cell itself.
    static QStringList goldOf(const KvpressScoring& scoring, const QString& cell,
                              const QString& where)
    {
        if (scoring.goldIsList || scoring.rule == KvpressRule::ExactMatch)
            if (const auto list = parsePythonStringList(cell))
                return *list;
        if (scoring.goldIsList && cell.trimmed().startsWith(QLatin1Char('[')))
            throw Error(where, QStringLiteral("field '%1' is not a list of strings: %2")
                                   .arg(scoring.goldColumn, cell.left(80)));
        if (cell.trimmed().isEmpty() && scoring.rule != KvpressRule::ExactMatch)
            throw Error(where, QStringLiteral("field '%1' is empty: the row has no gold answer to "
                                              "score against")
                                   .arg(scoring.goldColumn));
        return {cell};
    }

    // The dataset's row without its context: every column but those evaluate.py adds,
    // in name order (evaluate.py writes the columns in no fixed order).
    static QStringList identityColumns(const CsvTable& table)
    {
        QStringList columns;
        for (const QString& c : table.header)
            if (!kRunColumns.contains(c))
                columns << c;
        columns.sort();
        return columns;
    }

    static QString identityHash(const CsvTable& table, size_t row, const QStringList& columns)
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        for (const QString& c : columns) {
            hash.addData(c.toUtf8());
            hash.addData(QByteArrayView("\x1f"));
            hash.addData(table.rows[row][table.column(c)].toUtf8());
            hash.addData(QByteArrayView("\x1e"));
        }
        return QString::fromLatin1(hash.result().toHex().left(16));
    }

    // metrics.json when it is there and is JSON; its absence or damage is said, not refused.
    QJsonDocument readMetrics(const Folder& f, QString& problem)
    {
        if (!QFileInfo(f.metrics).isFile()) {
            problem = QStringLiteral("absent");
            m_run.missing << QStringLiteral("%1 is absent: its rows are not checked against "
                                            "kvpress's metrics")
                                 .arg(f.metrics);
            return {};
        }
        QJsonParseError error{};
        const QJsonDocument doc =
            QJsonDocument::fromJson(nullifyBareNonFinite(readSourceFile(f.metrics)), &error);
        m_run.sources.push_back(
            {f.metrics, fileSha256(f.metrics), doc.isArray() ? qint64(doc.array().size()) : 1});
        if (error.error != QJsonParseError::NoError)
            problem = QStringLiteral("unchecked: not JSON (%1)").arg(error.errorString());
        return doc;
    }

    void importRows(Folder& f)
    {
        const KvpressScoring scoring = kvpressScoringFor(f.dataset);
        m_scoring.insert(f.dataset, scoring.description);
        requireColumn(f, kPrediction, QStringLiteral("the model's answers"));
        requireColumn(f, scoring.goldColumn,
                      QStringLiteral("the gold answer %1 is scored against").arg(f.dataset));
        if (scoring.rule == KvpressRule::RulerStringMatch)
            requireColumn(f, QStringLiteral("task"),
                          QStringLiteral("RULER's metric depends on the task"));
        const QString configKey = registerConfig(f);
        QString metricsProblem;
        const QJsonDocument metrics = readMetrics(f, metricsProblem);
        // needle_in_haystack's metrics.json lists one ROUGE result per row, in row order.
        const bool rougeRows = scoring.rule == KvpressRule::NeedleContained && metrics.isArray() &&
                               metrics.array().size() == qsizetype(f.table.rows.size());
        const QStringList identity = identityColumns(f.table);
        const int predictionColumn = f.table.column(kPrediction);
        const int goldColumn = f.table.column(scoring.goldColumn);
        const int taskColumn = f.table.column(QStringLiteral("task"));
        const int ratioColumn = f.table.column(kRowRatio);
        QHash<QString, int> seen;
        Tally tally;
        for (size_t i = 0; i < f.table.rows.size(); ++i) {
            const QStringList& cells = f.table.rows[i];
            const int line = f.table.lines[i];
            const QString where = recordPlace(f.predictions, line);
            const QString hash = identityHash(f.table, i, identity);
            if (const auto it = seen.constFind(hash); it != seen.constEnd())
                throw Error(where, QStringLiteral("duplicate row: fields %1 equal those of line %2")
                                       .arg(identity.join(QStringLiteral(", ")))
                                       .arg(*it));
            seen.insert(hash, line);
            const QString task = taskColumn >= 0 ? cells[taskColumn] : QString();
            const QStringList gold = goldOf(scoring, cells[goldColumn], where);
            const QString sampleKey = f.suite + QStringLiteral("::") +
                                      (task.isEmpty() ? hash : task + QStringLiteral("::") + hash);
            if (f.full && !m_builder.hasSample(sampleKey))
                addSample(f, i, sampleKey, hash, gold, identity, scoring.goldColumn, where);
            if (!f.full && !m_builder.hasSample(sampleKey))
                throw Error(
                    where,
                    QStringLiteral("a row for a sample the FullCache rows of %1 lack "
                                   "(fields %2 match no row of its no_press folder): "
                                   "a compressed row is read against its FullCache row%3")
                        .arg(f.suite, identity.join(QStringLiteral(", ")), queryAwareHint(f)));
            ResultRecord row;
            row.configKey = configKey;
            row.answer = cells[predictionColumn];
            const KvpressRowScore s = scoreKvpressRow(scoring.rule, row.answer, gold, task);
            row.correct = s.correct;
            row.score = s.score;
            if (rougeRows) {
                const QJsonObject rouge = metrics.array().at(qsizetype(i)).toObject();
                row.extra.insert(QStringLiteral("kvpress_rouge"), rouge);
                const QJsonValue f1 =
                    rouge.value(QStringLiteral("rouge-l")).toObject().value(QStringLiteral("f"));
                if (f1.isDouble())
                    row.score = f1.toDouble();
            }
            if (ratioColumn >= 0 && std::abs(cells[ratioColumn].toDouble() - f.ratio) > 1e-9)
                row.extra.insert(kRowRatio, cells[ratioColumn].toDouble());
            auto& [sum, n] = tally.perTask[task];
            sum += s.score.value_or(s.correct ? 1.0 : 0.0);
            ++n;
            tally.correct += s.correct ? 1.0 : 0.0;
            ++tally.rows;
            m_builder.addRow(sampleKey, row, where);
        }
        m_run.sources.push_back(
            {f.predictions, fileSha256(f.predictions), qint64(f.table.rows.size())});
        m_run.sources.push_back({f.config, fileSha256(f.config), 1});
        if (metricsProblem.isEmpty())
            metricsProblem = checkMetrics(scoring.rule, metrics, tally, rougeRows);
        noteFolder(f, tally, metricsProblem);
    }

    // query_aware moves the question into the context (evaluate.py), so such rows have
    // an empty question and match only a query_aware no_press folder's.
    static QString queryAwareHint(const Folder& f)
    {
        return f.settings.value(QStringLiteral("query_aware")).toBool()
                   ? QStringLiteral(" (this run is query_aware: its questions are empty, so its "
                                    "FullCache folder must be query_aware too)")
                   : QString();
    }

    void addSample(const Folder& f, size_t row, const QString& key, const QString& hash,
                   const QStringList& gold, const QStringList& identity, const QString& goldColumn,
                   const QString& where)
    {
        SampleInfo s;
        s.key = key;
        s.suite = f.suite;
        s.sourceId = hash;
        s.gold = gold.size() == 1
                     ? gold.front()
                     : QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(gold))
                                             .toJson(QJsonDocument::Compact));
        for (const QString& c : identity)
            if (c != goldColumn)
                s.meta.insert(c, f.table.rows[row][f.table.column(c)]);
        m_builder.addSample(s, where);
    }

    // Whether the per-row values give kvpress's own metrics.json ("agree ..." or
    // "differ: ..."), for the datasets whose metric the rows reproduce.
    static QString checkMetrics(KvpressRule rule, const QJsonDocument& metrics, const Tally& tally,
                                bool rougeRows)
    {
        switch (rule) {
        case KvpressRule::RulerStringMatch:
            return checkRulerMetrics(metrics.object(), tally);
        case KvpressRule::NeedleContained:
            return rougeRows ? QStringLiteral(
                                   "agree: one ROUGE result per row, taken as the rows' scores")
                             : QStringLiteral("differ: metrics.json does not list one ROUGE result "
                                              "per row; the rows have no score");
        case KvpressRule::LongBenchV2:
            return checkMean(metrics.object(), QStringLiteral("average"), tally);
        case KvpressRule::BoxedLast:
        case KvpressRule::BoxedFirst:
            return checkMean(metrics.object(), QStringLiteral("accuracy"), tally);
        case KvpressRule::ExactMatch:
            break;
        }
        return QStringLiteral("unchecked: kvpress's metric for this dataset is not the exact match "
                              "the rows carry");
    }

    // kvpress's RULER metric: per task, 100 x the mean row value, rounded to 2 places.
    static QString checkRulerMetrics(const QJsonObject& metrics, const Tally& tally)
    {
        QStringList differences;
        for (const auto& [task, sums] : tally.perTask) {
            const double ours = 100.0 * sums.first / sums.second;
            const QJsonValue theirs =
                metrics.value(task).toObject().value(QStringLiteral("string_match"));
            if (!theirs.isDouble())
                differences << QStringLiteral("%1 absent from metrics.json").arg(task);
            else if (std::abs(ours - theirs.toDouble()) > 0.005 + 1e-9)
                differences << QStringLiteral("%1: rows %2, metrics.json %3")
                                   .arg(task, QString::number(ours, 'f', 2))
                                   .arg(theirs.toDouble());
        }
        for (auto it = metrics.begin(); it != metrics.end(); ++it)
            if (!tally.perTask.count(it.key()))
                differences << QStringLiteral("%1 in metrics.json has no rows").arg(it.key());
        if (!differences.isEmpty())
            return QStringLiteral("differ: ") + differences.join(QStringLiteral("; "));
        return QStringLiteral("agree: string_match of %1 task(s)").arg(tally.perTask.size());
    }

    static QString checkMean(const QJsonObject& metrics, const QString& key, const Tally& tally)
    {
        const QJsonValue theirs = metrics.value(key);
        const double ours = tally.rows ? tally.correct / tally.rows : 0.0;
        if (!theirs.isDouble())
            return QStringLiteral("differ: metrics.json has no '%1'").arg(key);
        if (std::abs(ours - theirs.toDouble()) > 1e-6)
            return QStringLiteral("differ: %1 rows %2, metrics.json %3")
                .arg(key, QString::number(ours, 'g', 6))
                .arg(theirs.toDouble());
        return QStringLiteral("agree: %1 %2").arg(key, QString::number(ours, 'g', 6));
    }

    void noteFolder(const Folder& f, const Tally& tally, const QString& metrics)
    {
        m_run.missing << f.notes;
        m_folderDetails.append(QJsonObject{{QStringLiteral("folder"), f.dir},
                                           {QStringLiteral("suite"), f.suite},
                                           {QStringLiteral("press"), f.press},
                                           {QStringLiteral("config"), f.configKey},
                                           {QStringLiteral("ratio"), f.ratio},
                                           {QStringLiteral("ratio_from"), f.ratioFrom},
                                           {QStringLiteral("rows"), tally.rows},
                                           {QStringLiteral("settings"), f.settings},
                                           {QStringLiteral("metrics_json"), metrics}});
        const QString verdict = metrics.section(QLatin1Char(':'), 0, 0);
        m_metricsVerdicts.insert(verdict, m_metricsVerdicts.value(verdict).toInt() + 1);
    }

    ImportedRun finish()
    {
        ImportedRun header;
        header.sources = m_run.sources;
        header.missing = m_run.missing;
        for (const Folder& f : m_folders) {
            if (header.modelId.isEmpty())
                header.modelId = f.model;
            if (header.modelRevision.isEmpty())
                header.modelRevision = f.revision;
        }
        QJsonObject scoring;
        for (auto it = m_scoring.cbegin(); it != m_scoring.cend(); ++it)
            scoring.insert(it.key(), it.value());
        header.details = {
            {QStringLiteral("scoring"), scoring},
            {QStringLiteral("folders"), m_folderDetails},
            {QStringLiteral("metrics_check"), m_metricsVerdicts},
            {QStringLiteral("row_identity"),
             QStringLiteral("rows are matched across folders by a hash of every predictions.csv "
                            "column but predicted_answer and compression_ratio")}};
        header.notReleased = QStringLiteral("kvpress's predictions.csv holds no contexts, masks or "
                                            "attention");
        return m_builder.finish(header);
    }

    ImportedRunBuilder m_builder{QStringLiteral("kvpress"),
                                  QStringLiteral("kvpress evaluation")};
    std::vector<Folder> m_folders;
    ImportedRun m_run; // sources and missing notes as they are found
    std::map<QString, const Folder*> m_configFolder;
    QMap<QString, QString> m_scoring;
    QJsonArray m_folderDetails;
    QJsonObject m_metricsVerdicts;
};
} // namespace

ImportedRun importKvpressResults(const QStringList& sources)
{
    return KvpressReader().read(sources);
}

} // namespace kvl
