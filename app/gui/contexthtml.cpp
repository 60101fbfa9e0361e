#include "contexthtml.h"

#include "views/colormaps.h"

#include <QJsonArray>
#include <QJsonObject>
#include <qcustomplot.h>

namespace kvl {

namespace {

enum SpanMark
{
    None = 0,
    Evidence = 1,
    Instruction = 2
};

QVector<int> positionMarks(const SampleDetail& d, int positions)
{
    QVector<int> marks(positions, None);
    for (const QJsonValue& v : d.sample.spans) {
        const QJsonObject o = v.toObject();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        const int mark = kind == QLatin1String("evidence")      ? Evidence
                         : kind == QLatin1String("instruction") ? Instruction
                                                                : None;
        const int b = std::max(0, o.value(QStringLiteral("start")).toInt());
        const int e = std::min(positions, o.value(QStringLiteral("end")).toInt());
        for (int t = b; t < e; ++t)
            marks[t] |= mark;
    }
    return marks;
}

QString tokenHtml(const QString& text, int mark, double keep, bool hasKeep,
                  QCPColorGradient& gradient)
{
    QString style;
    if (hasKeep) {
        const QColor bg = QColor::fromRgb(gradient.color(keep, QCPRange(0.0, 1.0)));
        const bool dark = bg.lightnessF() < 0.5;
        style += QStringLiteral("background-color:%1;color:%2;")
                     .arg(bg.name(), dark ? QStringLiteral("#ffffff") : QStringLiteral("#000000"));
    }
    if (mark & Evidence)
        style += QStringLiteral("font-weight:bold;text-decoration:underline;");
    if (mark & Instruction)
        style += QStringLiteral("font-style:italic;text-decoration:overline;");
    const QString escaped = text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (style.isEmpty())
        return escaped;
    return QStringLiteral("<span style=\"%1\">%2</span>").arg(style, escaped);
}

int contextPositions(const SampleDetail& d)
{
    return std::max<int>(d.sample.contextLen, int(d.tokenKeep.size()));
}

} // namespace

QVector<int> evidenceStarts(const SampleDetail& d)
{
    const int positions = contextPositions(d);
    QVector<int> starts;
    for (const QJsonValue& v : d.sample.spans) {
        const QJsonObject o = v.toObject();
        const int b = std::max(0, o.value(QStringLiteral("start")).toInt());
        if (o.value(QStringLiteral("kind")).toString() == QLatin1String("evidence") &&
            b < std::min(positions, o.value(QStringLiteral("end")).toInt()))
            starts << b;
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    return starts;
}

QString evidenceAnchor(int k)
{
    return QStringLiteral("evidence-%1").arg(k);
}

QString contextHtml(const SampleDetail& d)
{
    const int positions = contextPositions(d);
    const QVector<int> marks = positionMarks(d, positions);
    const QVector<int> starts = evidenceStarts(d);
    // The token wrapped in the anchor of the evidence span it starts, if any.
    auto anchored = [&starts](int t, const QString& html) {
        const qsizetype k = starts.indexOf(t);
        return k < 0 ? html
                     : QStringLiteral("<a name=\"%1\">%2</a>").arg(evidenceAnchor(int(k)), html);
    };
    QCPColorGradient gradient = colorGradient(ColorMap::Cividis);
    const bool hasKeep = d.tokenKeep.size() == positions && positions > 0;
    const bool hasText = !d.context.isEmpty() && d.tokenOffsets.size() == positions;
    // An imported run's source released no context: say so rather than number positions.
    if (!hasText && !d.notReleased.isEmpty())
        return QStringLiteral("<p><i>%1</i></p>").arg(d.notReleased.toHtmlEscaped());
    QString html = QStringLiteral("<div style=\"line-height:150%;\">");
    if (hasText) {
        int at = 0;
        for (int t = 0; t < positions; ++t) {
            const auto [b, e] = d.tokenOffsets[t];
            if (b > at) // text no token covers (whitespace a tokenizer dropped)
                html += d.context.mid(at, b - at).toHtmlEscaped();
            html += anchored(t, tokenHtml(d.context.mid(b, e - b), marks[t],
                                          hasKeep ? d.tokenKeep[t] : 1.0, hasKeep, gradient));
            at = std::max(at, e);
        }
        html += d.context.mid(at).toHtmlEscaped();
    } else {
        html += QStringLiteral("<span style=\"font-family:monospace;\">");
        for (int t = 0; t < positions; ++t)
            html += anchored(t, tokenHtml(QString::number(t), marks[t],
                                          hasKeep ? d.tokenKeep[t] : 1.0, hasKeep, gradient)) +
                    QStringLiteral(" ");
        html += QStringLiteral("</span>");
    }
    return html + QStringLiteral("</div>");
}

} // namespace kvl
