#include "store/resultcolumns.h"

#include "store/sqlitestatement.h"

#include <QJsonDocument>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace kvl {

ConfigRecord readConfigRecord(const SqliteStatement& st)
{
    ConfigRecord c;
    c.id = st.columnInt(0);
    c.key = st.columnText(1);
    c.compressor = st.columnText(2);
    c.ratio = st.columnDouble(3);
    c.params = jsonObjectFromText(st.columnText(4));
    return c;
}

QStringList resultValueColumns()
{
    QStringList columns = {QStringLiteral("answer"), QStringLiteral("correct"),
                           QStringLiteral("score"), QStringLiteral("transition")};
    for (const DiagnosticColumn& c : diagnosticMetricColumns())
        columns << QLatin1String(c.name);
    columns << QLatin1String(kCoverageTypeColumn)
            << QStringList{QStringLiteral("signature"),       QStringLiteral("GER"),
                           QStringLiteral("leakage"),         QStringLiteral("leaked"),
                           QStringLiteral("compliance_json"), QStringLiteral("text2json"),
                           QStringLiteral("kv_bytes"),        QStringLiteral("prefill_ms"),
                           QStringLiteral("compress_ms"),     QStringLiteral("answer_ms"),
                           QStringLiteral("diagnose_ms"),     QStringLiteral("extra_json"),
                           QStringLiteral("layer_json"),      QStringLiteral("span_keep_json")};
    return columns;
}

QString resultChecksumSql(const QString& alias)
{
    QStringList values;
    for (const QString& c : resultValueColumns())
        values << alias + QLatin1Char('.') + c;
    return QStringLiteral("kvl_checksum(%1)").arg(values.join(QLatin1String(", ")));
}

QString jsonText(const QJsonObject& object)
{
    if (object.isEmpty())
        return {};
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject jsonObjectFromText(const QString& text)
{
    return text.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(text.toUtf8()).object();
}

QJsonArray jsonArrayFromText(const QString& text)
{
    return text.isEmpty() ? QJsonArray() : QJsonDocument::fromJson(text.toUtf8()).array();
}

namespace {
// Shortest round-trip text of a number; JSON has no NaN/Infinity, so those are null.
void appendNumber(QByteArray& out, std::optional<double> value)
{
    if (!value || !std::isfinite(*value)) {
        out += "null";
        return;
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, *value);
    out.append(buffer, result.ptr - buffer);
}

std::optional<double> optNumber(const QJsonValue& v)
{
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}
} // namespace

QString layerStatsJson(const std::vector<LayerStat>& layers)
{
    if (layers.empty())
        return {};
    // Written by hand: a sweep formats millions of these numbers.
    QByteArray out("[");
    for (const LayerStat& l : layers) {
        if (out.size() > 1)
            out += ',';
        out += '[';
        out += QByteArray::number(l.layer);
        out += ',';
        appendNumber(out, l.ger);
        out += ',';
        appendNumber(out, l.consensus);
        out += ']';
    }
    out += ']';
    return QString::fromLatin1(out);
}

namespace {
// `value` as a layer index when it is one: a whole number in [0, INT_MAX].
std::optional<int> layerIndex(double value)
{
    if (!(value >= 0.0 && value <= double(std::numeric_limits<int>::max())) ||
        value != std::floor(value))
        return std::nullopt;
    return int(value);
}
} // namespace

std::vector<LayerStat> layerStatsFromJson(const QString& text)
{
    std::vector<LayerStat> layers;
    for (const QJsonValue& v : jsonArrayFromText(text)) {
        const QJsonArray a = v.toArray();
        // A layer is a whole number from 0; an entry naming none (a damaged file) is left
        // out rather than counted as layer 0.
        const std::optional<int> layer = layerIndex(a.at(0).toDouble(-1.0));
        if (layer)
            layers.push_back({*layer, optNumber(a.at(1)), optNumber(a.at(2))});
    }
    return layers;
}

namespace {
class TripleParser
{
  public:
    explicit TripleParser(const QByteArray& text)
        : m_p(text.constData()), m_end(text.constData() + text.size())
    {}

    bool parse(std::vector<LayerStat>& out)
    {
        if (!eat('['))
            return false;
        if (eat(']'))
            return m_p == m_end;
        do {
            LayerStat l;
            std::optional<double> layer;
            if (!eat('[') || !number(layer) || !layer || !eat(',') || !number(l.ger) || !eat(',') ||
                !number(l.consensus) || !eat(']'))
                return false;
            // Not a layer index (1e115, -1, 2.5): the careful parser below decides.
            const std::optional<int> index = layerIndex(*layer);
            if (!index)
                return false;
            l.layer = *index;
            out.push_back(l);
        } while (eat(','));
        return eat(']') && m_p == m_end;
    }

  private:
    bool eat(char c)
    {
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool number(std::optional<double>& value)
    {
        if (m_end - m_p >= 4 && std::memcmp(m_p, "null", 4) == 0) {
            m_p += 4;
            value.reset();
            return true;
        }
        double v = 0.0;
        const auto result = std::from_chars(m_p, m_end, v);
        if (result.ec != std::errc())
            return false;
        m_p = result.ptr;
        value = v;
        return true;
    }

    const char* m_p;
    const char* m_end;
};
} // namespace

std::vector<LayerStat> layerStatsFromJsonUtf8(const QByteArray& text)
{
    std::vector<LayerStat> layers;
    if (text.isEmpty())
        return layers;
    if (TripleParser(text).parse(layers))
        return layers;
    return layerStatsFromJson(QString::fromUtf8(text));
}

QString spanKeepsJson(const std::vector<SpanKeep>& spans)
{
    if (spans.empty())
        return {};
    QJsonArray out;
    for (const SpanKeep& s : spans)
        out.append(QJsonArray{s.spanIndex, s.kind,
                              s.instructionOrder ? QJsonValue(*s.instructionOrder) : QJsonValue(),
                              s.keepRate && std::isfinite(*s.keepRate) ? QJsonValue(*s.keepRate)
                                                                       : QJsonValue()});
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
}

std::vector<SpanKeep> spanKeepsFromJson(const QString& text)
{
    std::vector<SpanKeep> spans;
    for (const QJsonValue& v : jsonArrayFromText(text)) {
        const QJsonArray a = v.toArray();
        SpanKeep s;
        s.spanIndex = a.at(0).toInt();
        s.kind = a.at(1).toString();
        if (a.at(2).isDouble())
            s.instructionOrder = a.at(2).toInt();
        s.keepRate = optNumber(a.at(3));
        spans.push_back(s);
    }
    return spans;
}

void bindResultValues(SqliteStatement& st, int i, const ResultRecord& r)
{
    st.bind(i++, r.answer.isNull() ? QStringLiteral("") : r.answer);
    st.bind(i++, qint64(r.correct ? 1 : 0));
    st.bind(i++, r.score);
    if (r.transition)
        st.bind(i++, transitionName(*r.transition));
    else
        st.bindNull(i++);
    for (const DiagnosticColumn& c : diagnosticMetricColumns())
        st.bind(i++, r.metrics.*(c.field));
    if (r.metrics.coverageType)
        st.bind(i++, coverageTypeName(*r.metrics.coverageType));
    else
        st.bindNull(i++);
    if (r.signature)
        st.bind(i++, signatureName(*r.signature));
    else
        st.bindNull(i++);
    st.bind(i++, r.ger);
    st.bind(i++, r.leakage);
    if (r.leakage)
        st.bind(i++, qint64(*r.leakage > kLeakageThreshold ? 1 : 0));
    else
        st.bindNull(i++);
    st.bind(i++, jsonText(r.compliance));
    st.bind(i++, r.text2json);
    st.bind(i++, r.kvBytes);
    st.bind(i++, r.timings.prefillMs);
    st.bind(i++, r.timings.compressMs);
    st.bind(i++, r.timings.answerMs);
    st.bind(i++, r.timings.diagnoseMs);
    st.bind(i++, jsonText(r.extra));
    st.bind(i++, layerStatsJson(r.layers));
    st.bind(i++, spanKeepsJson(r.spans));
}

void readResultValues(const SqliteStatement& st, int i, ResultRecord& r)
{
    r.answer = st.columnText(i++);
    r.correct = st.columnInt(i++) != 0;
    r.score = st.columnOptDouble(i++);
    r.transition = transitionFromName(st.columnText(i++));
    for (const DiagnosticColumn& c : diagnosticMetricColumns())
        r.metrics.*(c.field) = st.columnOptDouble(i++);
    r.metrics.coverageType = coverageTypeFromName(st.columnText(i++));
    r.signature = signatureFromName(st.columnText(i++));
    r.ger = st.columnOptDouble(i++);
    r.leakage = st.columnOptDouble(i++);
    ++i; // leaked: derived from leakage
    r.compliance = jsonObjectFromText(st.columnText(i++));
    r.text2json = st.columnOptDouble(i++);
    r.kvBytes = st.columnOptInt(i++);
    r.timings.prefillMs = st.columnOptDouble(i++);
    r.timings.compressMs = st.columnOptDouble(i++);
    r.timings.answerMs = st.columnOptDouble(i++);
    r.timings.diagnoseMs = st.columnOptDouble(i++);
    r.extra = jsonObjectFromText(st.columnText(i++));
    r.layers = layerStatsFromJson(st.columnText(i++));
    r.spans = spanKeepsFromJson(st.columnText(i++));
}

} // namespace kvl
