#include "colorscaleticks.h"

#include <qcustomplot.h>

#include <algorithm>

namespace kvl {

namespace {

class LengthFittedTicker : public QCPAxisTicker
{
  public:
    explicit LengthFittedTicker(QCPAxis* axis) : m_axis(axis) {}

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                  QVector<double>& ticks, QVector<double>* subTicks,
                  QVector<QString>* tickLabels) override
    {
        if (m_axis && m_axis->axisRect()) {
            const QRect rect = m_axis->axisRect()->rect();
            const int length = m_axis->orientation() == Qt::Vertical ? rect.height() : rect.width();
            // A label's height plus as much again between labels on a vertical bar; a
            // horizontal bar's labels are wider, so the same pitch is kept in both.
            const int pitch = 2 * QFontMetrics(m_axis->tickLabelFont()).height();
            // Before the first layout the rect is empty: the default count then.
            if (length > 0)
                setTickCount(std::clamp(length / std::max(pitch, 1), 2, kMostTicks));
        }
        QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    }

  private:
    static constexpr int kMostTicks = 5; // QCPAxisTicker's default
    QPointer<QCPAxis> m_axis;
};

} // namespace

void fitColorScaleTicks(QCPColorScale* scale)
{
    if (!scale || !scale->axis() || scale->dataScaleType() == QCPAxis::stLogarithmic)
        return;
    scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new LengthFittedTicker(scale->axis())));
}

} // namespace kvl
