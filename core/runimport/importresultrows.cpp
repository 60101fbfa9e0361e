// Plain result rows from any pipeline: CSV (with a header) or JSONL, gzipped or not,
// one row per sample x configuration. Required: sample_id, compressor, ratio, correct.
// Optional: suite, score, prediction (the model's answer), answer (the gold answer),
// transition, signature, model (the model id, one per file set), and any diagnostic column under its KVDiagnosis name
// (ERR_slot, ECov_slot, DRR, delta_NLL, GPR, KL, TopK, gold_rank_shift, EAR,
// coverage_type). The FullCache rows are those whose compressor is FullCache (any
// case), at ratio 0. Other columns are kept in the row's extra fields.
#include "common/error.h"
#include "diagnose/signature.h"
#include "runimport/pressnames.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"

#include <QFileInfo>
#include <QHash>
#include <cmath>

namespace kvl {

namespace {

// One record as field -> value: CSV cells become strings (an empty cell is null), JSONL
// values stay what they are.
using Record = QJsonObject;

bool isNull(const QJsonValue& v)
{
    return v.isNull() || v.isUndefined() || (v.isString() && v.toString().trimmed().isEmpty());
}


QString requiredText(const Record& r, const char* field, const QString& where)
{
    const QJsonValue v = r.value(QLatin1String(field));
    if (isNull(v) || (!v.isString() && !v.isDouble()))
        throw Error(where, QStringLiteral("field '%1' is missing").arg(QLatin1String(field)));
    return jsonScalarText(v).trimmed();
}

std::optional<double> number(const Record& r, const char* field, const QString& where,
                             bool required)
{
    const QJsonValue v = r.value(QLatin1String(field));
    if (isNull(v)) {
        if (required)
            throw Error(where, QStringLiteral("field '%1' is missing").arg(QLatin1String(field)));
        return std::nullopt;
    }
    if (v.isDouble())
        return v.toDouble();
    bool ok = false;
    const double d = v.toString().trimmed().toDouble(&ok);
    if (!v.isString() || !ok || !std::isfinite(d))
        throw Error(where, QStringLiteral("field '%1' is '%2', not a number")
                               .arg(QLatin1String(field), jsonScalarText(v)));
    return d;
}

bool correctness(const Record& r, const QString& where)
{
    const QJsonValue v = r.value(QLatin1String("correct"));
    if (v.isBool())
        return v.toBool();
    if (v.isDouble() && (v.toDouble() == 0.0 || v.toDouble() == 1.0))
        return v.toDouble() == 1.0;
    const QString t = jsonScalarText(v).trimmed().toLower();
    if (t == QLatin1String("true") || t == QLatin1String("1") || t == QLatin1String("yes"))
        return true;
    if (t == QLatin1String("false") || t == QLatin1String("0") || t == QLatin1String("no"))
        return false;
    throw Error(where, isNull(v) ? QStringLiteral("field 'correct' is missing")
                                 : QStringLiteral("field 'correct' is '%1', not true/false or 1/0")
                                       .arg(jsonScalarText(v)));
}

bool isFullCacheName(const QString& name)
{
    const QString n = name.toLower().remove(QLatin1Char('_'));
    return n == QLatin1String("fullcache") || n == QLatin1String("full");
}

const QStringList& knownColumns()
{
    static const QStringList columns = [] {
        QStringList c = {QStringLiteral("sample_id"),  QStringLiteral("compressor"),
                         QStringLiteral("ratio"),      QStringLiteral("correct"),
                         QStringLiteral("suite"),      QStringLiteral("score"),
                         QStringLiteral("prediction"), QStringLiteral("answer"),
                         QStringLiteral("transition"), QStringLiteral("signature"),
                         QStringLiteral("model"),
                         QLatin1String(kCoverageTypeColumn)};
        for (const DiagnosticColumn& d : diagnosticMetricColumns())
            c << QLatin1String(d.name);
        return c;
    }();
    return columns;
}

class RowsReader
{
  public:
    ImportedRun read(const QStringList& files)
    {
        if (files.isEmpty())
            throw Error(QStringLiteral("--format rows needs at least one CSV or JSONL file"));
        for (const QString& file : files)
            readFile(file);
        ImportedRun header;
        header.modelId = m_model;
        header.sources = m_sources;
        header.notReleased = QStringLiteral("the rows carry no masks, attention or contexts");
        header.details = {{QStringLiteral("signatures_given"), m_signaturesGiven},
                          {QStringLiteral("signatures_computed"), m_signaturesComputed}};
        ImportedRun run = m_builder.finish(header);
        // C→W rows with diagnostics but no signature get KVLens's rules, as a KVLens run's do.
        for (SampleRecord& s : run.samples)
            for (ResultRecord& r : s.results)
                if (r.transition == Transition::CorrectToWrong && !r.signature &&
                    r.metrics != DiagnosticRow{}) {
                    r.signature = classifySignature(r.metrics);
                    ++m_signaturesComputed;
                }
        run.details.insert(QStringLiteral("signatures_computed"), m_signaturesComputed);
        return run;
    }

  private:
    void readFile(const QString& file)
    {
        if (!QFileInfo(file).isFile())
            throw Error(file, QStringLiteral("no such file"));
        const QByteArray bytes = readSourceFile(file);
        qint64 records = 0;
        const QByteArray head = bytes.trimmed();
        if (head.startsWith('{')) {
            forEachJsonlRecord(bytes, file, [&](const QJsonObject& o, int line) {
                addRecord(o, recordPlace(file, line));
                ++records;
            });
        } else {
            const CsvTable table = parseCsvTable(bytes, file);
            for (size_t i = 0; i < table.rows.size(); ++i) {
                Record r;
                for (int c = 0; c < table.header.size(); ++c)
                    r.insert(table.header[c].trimmed(), table.rows[i][c]);
                addRecord(r, recordPlace(file, table.lines[i]));
                ++records;
            }
        }
        m_sources.push_back({file, fileSha256(file), records});
    }

    void addRecord(const Record& r, const QString& where)
    {
        const QString sampleId = requiredText(r, "sample_id", where);
        const QString suite = jsonScalarText(r.value(QLatin1String("suite"))).trimmed();
        const QString sampleKey = suite.isEmpty() ? sampleId : suite + QStringLiteral("::") + sampleId;
        const QString gold = jsonScalarText(r.value(QLatin1String("answer")));
        if (!m_builder.hasSample(sampleKey)) {
            SampleInfo s;
            s.key = sampleKey;
            s.suite = suite;
            s.sourceId = sampleId;
            s.gold = gold;
            m_builder.addSample(s, where);
            m_goldWhere.insert(sampleKey, where);
        } else if (!gold.isEmpty()) {
            SampleInfo& s = m_builder.sample(sampleKey);
            if (s.gold.isEmpty()) {
                s.gold = gold;
                m_goldWhere.insert(sampleKey, where);
            } else if (s.gold != gold) {
                throw Error(where, QStringLiteral("field 'answer' differs from the answer of the "
                                                  "same sample at %1")
                                       .arg(m_goldWhere.value(sampleKey)));
            }
        }

        const QString model = jsonScalarText(r.value(QLatin1String("model"))).trimmed();
        if (!model.isEmpty()) {
            if (!m_model.isEmpty() && m_model != model)
                throw Error(where, QStringLiteral("field 'model' is '%1' where earlier rows name "
                                                  "'%2': one run holds one model's results")
                                       .arg(model, m_model));
            m_model = model;
        }

        const QString source = requiredText(r, "compressor", where);
        const double ratio = *number(r, "ratio", where, true);
        const bool full = isFullCacheName(source);
        const QString kvlensName = full ? kFullCacheCompressor : kvlensPressName(source);
        QJsonObject params;
        if (!full && kvlensName != source)
            params.insert(QStringLiteral("source_name"), source);
        const QString configKey =
            m_builder.config(kvlensName.isEmpty() ? source : kvlensName, ratio, params, where);

        ResultRecord row;
        row.configKey = configKey;
        row.correct = correctness(r, where);
        row.score = number(r, "score", where, false);
        row.answer = jsonScalarText(r.value(QLatin1String("prediction")));
        const QString transition = jsonScalarText(r.value(QLatin1String("transition"))).trimmed();
        if (!transition.isEmpty() && !full) {
            row.transition = transitionFromName(transition);
            if (!row.transition)
                throw Error(where, QStringLiteral("field 'transition' is '%1', not one of C->C, "
                                                  "C->W, W->C, W->W")
                                       .arg(transition));
        }
        QJsonObject diagnostics;
        for (const DiagnosticColumn& d : diagnosticMetricColumns())
            if (r.contains(QLatin1String(d.name)))
                diagnostics.insert(QLatin1String(d.name), r.value(QLatin1String(d.name)));
        if (r.contains(QLatin1String(kCoverageTypeColumn)) &&
            !isNull(r.value(QLatin1String(kCoverageTypeColumn))))
            diagnostics.insert(QLatin1String(kCoverageTypeColumn),
                               r.value(QLatin1String(kCoverageTypeColumn)));
        try {
            row.metrics = diagnosticRowFromJson(diagnostics);
        } catch (const Error& e) {
            throw Error(where, e.message());
        }
        const QString signature = jsonScalarText(r.value(QLatin1String("signature"))).trimmed();
        if (!signature.isEmpty()) {
            row.signature = signatureFromName(signature);
            if (!row.signature)
                throw Error(where, QStringLiteral("field 'signature' is '%1', not one of KVLens's "
                                                  "eight (kvlens-cli classify --help)")
                                       .arg(signature));
            ++m_signaturesGiven;
        }
        for (auto it = r.begin(); it != r.end(); ++it)
            if (!knownColumns().contains(it.key()) && !isNull(it.value()))
                row.extra.insert(it.key(), it.value());
        m_builder.addRow(sampleKey, row, where);
    }

    ImportedRunBuilder m_builder{QStringLiteral("rows"),
                                  QStringLiteral("result rows")};
    std::vector<ImportedSource> m_sources;
    QHash<QString, QString> m_goldWhere;
    QString m_model;
    qint64 m_signaturesGiven = 0, m_signaturesComputed = 0;
};
} // namespace

ImportedRun importResultRows(const QStringList& sources)
{
    return RowsReader().read(sources);
}

} // namespace kvl
