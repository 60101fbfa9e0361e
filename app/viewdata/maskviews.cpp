#include "maskviews.h"

#include "diagnose/attentionsummary.h"
#include "diagnose/keptmask.h"

#include <QJsonObject>

#include <algorithm>

namespace kvl {

QVector<double> layerKeepRates(const KeptMask& mask)
{
    QVector<double> keep(qsizetype(mask.layers) * mask.contextLen, 0.0);
    if (mask.kvHeads <= 0)
        return keep;
    for (int l = 0; l < mask.layers; ++l)
        for (int h = 0; h < mask.kvHeads; ++h)
            for (int t = 0; t < mask.contextLen; ++t)
                if (mask.at(l, h, t))
                    keep[qsizetype(l) * mask.contextLen + t] += 1.0;
    for (double& k : keep)
        k /= mask.kvHeads;
    return keep;
}

QVector<double> tokenKeepRates(const KeptMask& mask)
{
    QVector<double> keep(mask.contextLen, 0.0);
    const int slotCount = mask.slotCount();
    if (slotCount <= 0)
        return keep;
    for (int l = 0; l < mask.layers; ++l)
        for (int h = 0; h < mask.kvHeads; ++h)
            for (int t = 0; t < mask.contextLen; ++t)
                if (mask.at(l, h, t))
                    keep[t] += 1.0;
    for (double& k : keep)
        k /= slotCount;
    return keep;
}

Heatmap attentionHeatmap(const AttentionSummary& attention, const KeptMask* mask,
                         const QJsonArray& spans)
{
    Heatmap map;
    map.rowKind = QStringLiteral("layer");
    map.rows = attention.layers;
    map.cols = attention.contextLen;
    map.values.fill(0.0, qsizetype(map.rows) * map.cols);
    if (attention.kvHeads > 0)
        for (int l = 0; l < attention.layers; ++l)
            for (int h = 0; h < attention.kvHeads; ++h)
                for (int t = 0; t < attention.contextLen; ++t)
                    map.values[qsizetype(l) * map.cols + t] +=
                        double(attention.at(l, h, t)) / attention.kvHeads;
    // Every head as well, for the views' layer × kv-head selector.
    map.kvHeads = attention.kvHeads;
    map.perHead = QVector<double>(attention.weights.begin(), attention.weights.end());
    // A mask of other dimensions (a damaged or foreign row) is not drawn rather than misdrawn.
    if (mask && mask->layers == attention.layers && mask->contextLen == attention.contextLen) {
        const QVector<double> keep = layerKeepRates(*mask);
        map.evicted.resize(keep.size());
        for (qsizetype i = 0; i < keep.size(); ++i)
            map.evicted[i] = keep[i] <= 0.0;
        if (mask->kvHeads == attention.kvHeads)
            map.perHeadEvicted = QVector<bool>(mask->kept.begin(), mask->kept.end());
        for (bool& evicted : map.perHeadEvicted)
            evicted = !evicted; // kept → evicted
    }
    map.evidence = evidenceSpans(spans);
    return map;
}

QVector<PositionSpan> evidenceSpans(const QJsonArray& spans)
{
    QVector<PositionSpan> out;
    for (const QJsonValue& v : spans) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("kind")).toString() != QLatin1String("evidence"))
            continue;
        const QString label = o.value(QStringLiteral("label")).toString();
        out.push_back({o.value(QStringLiteral("start")).toInt(),
                       o.value(QStringLiteral("end")).toInt(),
                       label.isEmpty() ? QStringLiteral("evidence") : label});
    }
    return out;
}

QStringList contextTokens(const QJsonObject& meta, int contextLen)
{
    const QString context = meta.value(QStringLiteral("context")).toString();
    const QJsonArray offsets = meta.value(QStringLiteral("token_offsets")).toArray();
    if (context.isEmpty() || offsets.size() != contextLen)
        return {};
    QStringList tokens;
    tokens.reserve(contextLen);
    for (const QJsonValue& v : offsets) {
        const QJsonArray pair = v.toArray();
        const int begin = std::clamp(pair.at(0).toInt(), 0, int(context.size()));
        const int end = std::clamp(pair.at(1).toInt(), begin, int(context.size()));
        tokens << context.mid(begin, end - begin);
    }
    return tokens;
}

QVector<RoleSpan> roleSpans(const QJsonArray& spans)
{
    QVector<RoleSpan> out;
    for (const QJsonValue& v : spans) {
        const QJsonObject o = v.toObject();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        if (kind == QLatin1String("evidence") || kind == QLatin1String("distractor"))
            continue;
        const QString role = o.value(QStringLiteral("role")).toString();
        RoleSpan s;
        s.begin = o.value(QStringLiteral("start")).toInt();
        s.end = o.value(QStringLiteral("end")).toInt();
        s.role = role.isEmpty() ? kind : role;
        s.label = o.value(QStringLiteral("label")).toString();
        if (s.label.isEmpty() && o.contains(QStringLiteral("order")))
            s.label =
                QStringLiteral("%1 #%2").arg(s.role).arg(o.value(QStringLiteral("order")).toInt());
        out.push_back(s);
    }
    return out;
}

} // namespace kvl
