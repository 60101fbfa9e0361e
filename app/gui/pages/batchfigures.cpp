#include "batchfigures.h"

#include "views/plotview.h"

#include <QWidget>

namespace kvl {

BatchFigures::BatchFigures(const RunViewData& data, const Provenance& base)
    : m_data(data), m_base(base), m_root(std::make_unique<QWidget>())
{}

BatchFigures::~BatchFigures() = default;

void BatchFigures::adopt(PlotView* view, const Provenance& provenance)
{
    view->setParent(m_root.get());
    view->setProvenance(withBase(provenance));
}

Provenance BatchFigures::withBase(Provenance p) const
{
    p.run = m_base.run;
    p.model = m_base.model;
    p.runHash = m_base.runHash;
    p.modelHash = m_base.modelHash;
    p.runToolVersion = m_base.runToolVersion;
    p.configuration = m_base.configuration;
    return p;
}

void BatchFigures::add(const QString& name, PlotView* view, double aspect, const QString& reason,
                       double minHeightInches)
{
    if (view->hasData())
        m_figures.push_back({name, view, aspect, 0.0, minHeightInches});
    else
        skip(name, reason);
}

void BatchFigures::addWithHeight(const QString& name, PlotView* view, double heightInches,
                                 const QString& reason)
{
    if (view->hasData())
        m_figures.push_back({name, view, 0.62, heightInches});
    else
        skip(name, reason);
}

void BatchFigures::skip(const QString& name, const QString& reason)
{
    m_skipped << QStringLiteral("%1: %2").arg(name, reason);
}

void BatchFigures::addTable(const QString& name, const QString& csv, const QString& note)
{
    if (!csv.isEmpty())
        m_tables.push_back({name, csv, note});
}

QString BatchFigures::slug(const QString& text)
{
    QString out;
    for (const QChar c : text.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            out += c;
        else if (c == QLatin1Char('.'))
            out += c;
        else if (!out.endsWith(QLatin1Char('-')))
            out += QLatin1Char('-');
    }
    while (out.endsWith(QLatin1Char('-')))
        out.chop(1);
    while (out.startsWith(QLatin1Char('-')))
        out.remove(0, 1);
    return out.isEmpty() ? QStringLiteral("view") : out;
}

QString BatchFigures::focusTag() const
{
    const ConfigChoice& focus = m_data.focus;
    return focus.compressor.isEmpty()
               ? QString()
               : QStringLiteral("-%1-%2").arg(slug(focus.compressor), ratioTag(focus.ratio));
}

QString BatchFigures::ratioTag(double ratio)
{
    return QStringLiteral("r%1").arg(ratio);
}

} // namespace kvl
