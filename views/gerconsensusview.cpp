#include "gerconsensusview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {

GerConsensusView::GerConsensusView(QWidget* parent)
    : PlotView(tr("GER and head consensus per layer"),
               tr("No run open.\nGER per layer rises towards 1 just before the accuracy cliff; "
                  "consensus shows where the heads of a layer agree."),
               parent)
{}

void GerConsensusView::setData(const GerData& data)
{
    m_data = data;
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void GerConsensusView::clear()
{
    m_data = {};
    setHasData(false);
}

void GerConsensusView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    resetPlot();
    QCPAxisRect* top = addAxisRect(1, 0);
    QCPAxisRect* bottom = addAxisRect(2, 0);
    auto* group = new QCPMarginGroup(plot());
    top->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    bottom->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    QCPLegend* legend = addLegend(top, Qt::AlignTop | Qt::AlignLeft);
    // Under both panels in an export where every corner of the GER panel has data.
    addPrintLegendRoom(legend, 3);

    int layers = 0;
    for (const GerByLayer& s : m_data.series)
        layers = std::max<int>(layers, std::max(s.ger.size(), s.consensus.size()));
    const QCPRange layerRange(-0.5, std::max(1, layers) - 0.5);
    top->axis(QCPAxis::atLeft)->setLabel(tr("GER"));
    bottom->axis(QCPAxis::atLeft)->setLabel(tr("Consensus"));
    bottom->axis(QCPAxis::atBottom)->setLabel(tr("Layer"));
    top->axis(QCPAxis::atBottom)->setTickLabels(false);
    for (QCPAxisRect* rect : {top, bottom}) {
        rect->axis(QCPAxis::atBottom)->setRange(layerRange);
        rect->axis(QCPAxis::atLeft)->setRange(0.0, 1.05);
        QSharedPointer<QCPAxisTicker> ticker(new QCPAxisTicker);
        ticker->setTickStepStrategy(QCPAxisTicker::tssReadability);
        rect->axis(QCPAxis::atBottom)->setTicker(ticker);
    }
    // Panning or zooming one panel's layer axis moves the other with it.
    connect(top->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            bottom->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));

    for (int i = 0; i < m_data.series.size(); ++i) {
        const GerByLayer& s = m_data.series[i];
        const QColor color = pal.seriesColor(i);
        const QCPScatterStyle dots(QCPScatterStyle::ssDisc, color, 5);
        auto* ger = new QCPGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        auto* cons = new QCPGraph(bottom->axis(QCPAxis::atBottom), bottom->axis(QCPAxis::atLeft));
        QVector<double> keys;
        for (int l = 0; l < s.ger.size(); ++l)
            keys << l;
        ger->setData(keys, s.ger, true);
        keys.clear();
        for (int l = 0; l < s.consensus.size(); ++l)
            keys << l;
        cons->setData(keys, s.consensus, true);
        for (QCPGraph* g : {ger, cons}) {
            g->setPen(QPen(color, 2));
            g->setScatterStyle(dots);
            g->setName(s.label);
        }
        ger->addToLegend(legend);
    }
    finishRebuild();
}

QString GerConsensusView::csv() const
{
    CsvTable table({QStringLiteral("series"), QStringLiteral("layer"), QStringLiteral("ger"),
                    QStringLiteral("consensus")});
    for (const GerByLayer& s : m_data.series) {
        const int layers = int(std::max(s.ger.size(), s.consensus.size()));
        for (int l = 0; l < layers; ++l)
            table.add(s.label)
                .add(l)
                .add(s.ger.value(l, std::nan("")))
                .add(s.consensus.value(l, std::nan("")))
                .endRow();
    }
    return table.text();
}

} // namespace kvl
