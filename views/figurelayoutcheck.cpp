#include "figurelayoutcheck.h"

#include "legendplacement.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QImage>
#include <QPointer>

#include <cmath>
#include <optional>
#include <vector>

namespace kvl {
namespace {

constexpr double kSlack = 1.0; // px: rounding in QCustomPlot's own layout
constexpr double kSmallestLabelPt = 5.0;

struct TextBox
{
    QString what;
    QRectF rect;
};

QSizeF textSize(const QFont& font, const QString& text, int flags = Qt::AlignCenter)
{
    return QFontMetricsF(font).boundingRect(QRectF(), flags | Qt::TextDontClip, text).size();
}

bool inside(const QRectF& inner, const QRectF& outer)
{
    return inner.left() >= outer.left() - kSlack && inner.right() <= outer.right() + kSlack &&
           inner.top() >= outer.top() - kSlack && inner.bottom() <= outer.bottom() + kSlack;
}

bool overlap(const QRectF& a, const QRectF& b)
{
    return a.adjusted(kSlack, kSlack, -kSlack, -kSlack)
        .intersects(b.adjusted(kSlack, kSlack, -kSlack, -kSlack));
}

QString describe(const QRectF& r)
{
    return QStringLiteral("(%1,%2 %3x%4)")
        .arg(qRound(r.x()))
        .arg(qRound(r.y()))
        .arg(qRound(r.width()))
        .arg(qRound(r.height()));
}

QString sideName(QCPAxis::AxisType type)
{
    switch (type) {
    case QCPAxis::atLeft:
        return QStringLiteral("left");
    case QCPAxis::atRight:
        return QStringLiteral("right");
    case QCPAxis::atTop:
        return QStringLiteral("top");
    case QCPAxis::atBottom:
        return QStringLiteral("bottom");
    }
    return {};
}

// The tick labels of one axis, placed as QCPAxisPainterPrivate places them: beyond the
// axis's offset, outward tick length and label padding, centred on the tick (rotated
// labels hang from the tick, as QCustomPlot draws them).
std::vector<TextBox> tickLabels(QCPAxis* axis)
{
    std::vector<TextBox> boxes;
    const QRect r = axis->axisRect()->rect();
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const double distance = axis->offset() + std::max(axis->tickLengthOut(), 0) +
                            axis->tickLabelPadding() + axis->basePen().widthF();
    const double angle = axis->tickLabelRotation() * M_PI / 180.0;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].trimmed().isEmpty())
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const QSizeF s = textSize(axis->tickLabelFont(), labels[i]);
        // The bounding box of the label turned by `angle`.
        const double w =
            std::abs(s.width() * std::cos(angle)) + std::abs(s.height() * std::sin(angle));
        const double h =
            std::abs(s.width() * std::sin(angle)) + std::abs(s.height() * std::cos(angle));
        QRectF box;
        switch (axis->axisType()) {
        case QCPAxis::atBottom:
            box = angle == 0.0 ? QRectF(at - w / 2, r.bottom() + distance, w, h)
                  : angle > 0  ? QRectF(at - s.height() / 2, r.bottom() + distance, w, h)
                               : QRectF(at - w + s.height() / 2, r.bottom() + distance, w, h);
            break;
        case QCPAxis::atTop:
            box = QRectF(at - w / 2, r.top() - distance - h, w, h);
            break;
        case QCPAxis::atLeft:
            box = QRectF(r.left() - distance - w, at - h / 2, w, h);
            break;
        case QCPAxis::atRight:
            box = QRectF(r.right() + distance, at - h / 2, w, h);
            break;
        }
        boxes.push_back({QStringLiteral("tick label '%1' of the %2 axis")
                             .arg(labels[i], sideName(axis->axisType())),
                         box});
    }
    return boxes;
}

// Two neighbouring tick labels of one axis on top of each other. Turned labels are
// parallel strips: they collide when their distance across the strips is less than a
// line of text.
bool collide(QCPAxis* axis, const TextBox& a, const TextBox& b)
{
    const double angle = std::abs(axis->tickLabelRotation()) * M_PI / 180.0;
    if (angle == 0.0) {
        // Numbers side by side need a gap to read as two ("1000 1250", not "10001250").
        const double gap =
            axis->orientation() == Qt::Horizontal
                ? QFontMetricsF(axis->tickLabelFont()).horizontalAdvance(QLatin1Char(' ')) / 2
                : 0.0;
        return overlap(a.rect.adjusted(-gap, 0, gap, 0), b.rect.adjusted(-gap, 0, gap, 0));
    }
    const double step = axis->orientation() == Qt::Horizontal
                            ? std::abs(a.rect.center().x() - b.rect.center().x())
                            : std::abs(a.rect.center().y() - b.rect.center().y());
    const double line = QFontMetricsF(axis->tickLabelFont()).height();
    return step * std::sin(angle) < line - kSlack;
}

// Where QCPItemText draws its text: the text and its padding, placed at the item's
// position by its position alignment. Rotated items are left out.
std::optional<TextBox> itemTextBox(QCPItemText* item)
{
    if (item->rotation() != 0.0 || item->text().isEmpty() || !item->visible())
        return std::nullopt;
    const QPointF at = item->position->pixelPosition();
    QSizeF s = textSize(item->font(), item->text(), item->textAlignment());
    const QMargins pad = item->padding();
    s += QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom());
    const Qt::Alignment a = item->positionAlignment();
    const double x = a & Qt::AlignLeft    ? at.x()
                     : a & Qt::AlignRight ? at.x() - s.width()
                                          : at.x() - s.width() / 2;
    const double y = a & Qt::AlignTop      ? at.y()
                     : a & Qt::AlignBottom ? at.y() - s.height()
                                           : at.y() - s.height() / 2;
    return TextBox{QStringLiteral("text '%1'").arg(item->text().simplified().left(40)),
                   QRectF(QPointF(x, y), s)};
}

// The length a colour scale's title runs along: the bar's height when it stands upright.
double colorScaleLength(const QCPColorScale* scale)
{
    return scale->type() == QCPAxis::atLeft || scale->type() == QCPAxis::atRight
               ? scale->outerRect().height()
               : scale->outerRect().width();
}

// The widest entry's least width (a grouped legend has empty cells).
double widestLegendEntry(QCPLegend* legend)
{
    double widest = 0.0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widest = std::max(widest, double(item->minimumOuterSizeHint().width()));
    return widest;
}

} // namespace

void layOutAt(QCustomPlot* plot, QSize layoutSize)
{
    // toPainter lays the plot out at the size, draws, and gives the viewport back.
    QImage scratch(layoutSize, QImage::Format_ARGB32_Premultiplied);
    QCPPainter painter(&scratch);
    plot->toPainter(&painter, layoutSize.width(), layoutSize.height());
}

QStringList figureLayoutProblems(QCustomPlot* plot, QSize layoutSize)
{
    layOutAt(plot, layoutSize);
    const QRectF canvas(QPointF(0, 0), QSizeF(layoutSize));
    QStringList problems;
    std::vector<TextBox> texts; // every placed text, for the overlap check

    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element)) {
            if (!text->visible() || text->text().isEmpty())
                continue;
            const QSizeF need = textSize(text->font(), text->text(), text->textFlags());
            const QRectF room = text->rect();
            const QString what =
                QStringLiteral("text '%1'").arg(text->text().simplified().left(40));
            if (need.width() > room.width() + kSlack || need.height() > room.height() + kSlack)
                problems << QStringLiteral("%1 needs %2x%3 but has %4x%5: cut")
                                .arg(what)
                                .arg(qRound(need.width()))
                                .arg(qRound(need.height()))
                                .arg(room.width())
                                .arg(room.height());
            if (!inside(room, canvas))
                problems << QStringLiteral("%1 %2 runs off the canvas").arg(what, describe(room));
            texts.push_back({what, QRectF(room.topLeft(), need).intersected(room)});
        } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            if (legend->visible() && !inside(legend->outerRect(), canvas))
                problems << QStringLiteral("legend %1 runs off the canvas")
                                .arg(describe(legend->outerRect()));
        } else if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
            // A colour scale's title runs along the bar; its axis rect is not among the
            // plot's, so the axis titles below do not see it.
            const QString label = scale->axis()->label();
            const QSizeF need = textSize(scale->axis()->labelFont(), label);
            const double length = colorScaleLength(scale);
            if (scale->visible() && !label.isEmpty() && need.width() > length + kSlack)
                problems << QStringLiteral("title '%1' of a colour scale is %2 long, the scale "
                                           "only %3: cut")
                                .arg(label.simplified())
                                .arg(qRound(need.width()))
                                .arg(qRound(length));
        } else if (auto* item = qobject_cast<QCPAbstractLegendItem*>(element)) {
            // A legend squeezed by the rows around it draws its entries shorter than
            // their text.
            const QSize need = item->minimumOuterSizeHint();
            if (item->visible() && (item->outerRect().height() + kSlack < need.height() ||
                                    item->outerRect().width() + kSlack < need.width()))
                problems << QStringLiteral("legend entry %1 needs %2x%3 but has %4x%5: cut")
                                .arg(describe(item->outerRect()))
                                .arg(need.width())
                                .arg(need.height())
                                .arg(item->outerRect().width())
                                .arg(item->outerRect().height());
        }
    }
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPLayoutElement* inset : rect->insetLayout()->elements(false)) {
            auto* legend = qobject_cast<QCPLegend*>(inset);
            if (!legend || !legend->visible())
                continue;
            if (!inside(legend->outerRect(), canvas))
                problems << QStringLiteral("legend %1 runs off the canvas")
                                .arg(describe(legend->outerRect()));
            if (const int hidden = insetLegendCoverage(legend); hidden > 0)
                problems << QStringLiteral("legend %1 hides drawn data (%2 samples of points "
                                           "and lines)")
                                .arg(describe(legend->outerRect()))
                                .arg(hidden);
        }
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible())
                continue;
            if (axis->tickLabels()) {
                std::vector<TextBox> labels = tickLabels(axis);
                for (size_t i = 0; i < labels.size(); ++i) {
                    if (!inside(labels[i].rect, canvas))
                        problems << QStringLiteral("%1 %2 runs off the canvas")
                                        .arg(labels[i].what, describe(labels[i].rect));
                    if (i > 0 && collide(axis, labels[i - 1], labels[i]))
                        problems << QStringLiteral("%1 overlaps %2")
                                        .arg(labels[i].what, labels[i - 1].what);
                }
            }
            if (!axis->label().isEmpty()) {
                // Titles of vertical axes run along the axis: their length is height.
                const QSizeF s = textSize(axis->labelFont(), axis->label());
                const bool vertical = axis->orientation() == Qt::Vertical;
                const double length = vertical ? rect->outerRect().height() : canvas.width();
                if (s.width() > length + kSlack)
                    problems << QStringLiteral("title '%1' of the %2 axis is %3 long, the %4 "
                                               "only %5: cut")
                                    .arg(axis->label().simplified(), sideName(axis->axisType()))
                                    .arg(qRound(s.width()))
                                    .arg(vertical ? QStringLiteral("plot")
                                                  : QStringLiteral("figure"))
                                    .arg(qRound(length));
            }
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(plot->item(i));
        if (!item)
            continue;
        const std::optional<TextBox> box = itemTextBox(item);
        if (!box)
            continue;
        const QRectF clip = item->clipToAxisRect() && item->clipAxisRect()
                                ? QRectF(item->clipAxisRect()->rect())
                                : canvas;
        if (!inside(box->rect, clip))
            problems << QStringLiteral("%1 %2 is cut by %3")
                            .arg(box->what, describe(box->rect),
                                 clip == canvas ? QStringLiteral("the canvas")
                                                : QStringLiteral("its plot area"));
        for (const TextBox& other : texts)
            if (overlap(other.rect, box->rect))
                problems << QStringLiteral("%1 overlaps %2").arg(box->what, other.what);
        texts.push_back(*box);
    }
    problems.removeDuplicates();
    return problems;
}

} // namespace kvl

namespace kvl {
namespace {

// `text` with line breaks at word boundaries so that no line is wider than `width`.
QString wrapped(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

// One pass of fitting: what does not fit the current layout is changed, and how to
// change it back is recorded. Returns whether anything changed.
bool PrintLayoutFit::fitOnce(QCustomPlot* plot, QSize layoutSize)
{
    layOutAt(plot, layoutSize);
    const QRectF canvas(QPointF(0, 0), QSizeF(layoutSize));
    // First where the legend goes: every other measure depends on the plot's width.
    if (moveSideLegendsBelow(plot, canvas.width()))
        return true;
    bool changed = wrapSqueezedLegends(plot, canvas.width());
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        auto* text = qobject_cast<QCPTextElement*>(element);
        if (!text || !text->visible() || text->text().isEmpty())
            continue;
        const double room = text->rect().width();
        if (textSize(text->font(), text->text(), text->textFlags()).width() <= room + kSlack)
            continue;
        const QString before = text->text();
        const QString after = wrapped(before, text->font(), 0.92 * room);
        if (after == before)
            continue; // one word wider than the room: nothing to wrap
        m_undo.push_back([text = QPointer<QCPTextElement>(text), before] {
            if (text)
                text->setText(before);
        });
        text->setText(after);
        changed = true;
    }
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible())
                continue;
            const double length =
                axis->orientation() == Qt::Vertical ? rect->rect().height() : rect->rect().width();
            const QString label = axis->label();
            if (!label.isEmpty() && textSize(axis->labelFont(), label).width() > length + kSlack) {
                const QString after = wrapped(label, axis->labelFont(), 0.92 * length);
                if (after != label) {
                    m_undo.push_back([axis = QPointer<QCPAxis>(axis), label] {
                        if (axis)
                            axis->setLabel(label);
                    });
                    axis->setLabel(after);
                    changed = true;
                }
            }
            if (!axis->tickLabels())
                continue;
            // Computed ticks (counts, shares) are thinned; named ticks (configurations,
            // presses) are each needed: turned 45°, then set smaller.
            if (!qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker())) {
                if (thinCollidingTicks(axis))
                    changed = true;
            } else if (axis->orientation() == Qt::Horizontal && axis->tickLabelRotation() == 0.0) {
                if (turnCollidingLabels(axis))
                    changed = true;
            } else if (shrinkCollidingLabels(axis)) {
                changed = true;
            }
        }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        auto* scale = qobject_cast<QCPColorScale*>(element);
        if (!scale || !scale->visible() || scale->axis()->label().isEmpty())
            continue;
        QCPAxis* axis = scale->axis();
        const double length = colorScaleLength(scale);
        const QString label = axis->label();
        if (textSize(axis->labelFont(), label).width() <= length + kSlack)
            continue;
        const QString after = wrapped(label, axis->labelFont(), 0.92 * length);
        if (after == label)
            continue;
        m_undo.push_back([axis = QPointer<QCPAxis>(axis), label] {
            if (axis)
                axis->setLabel(label);
        });
        axis->setLabel(after);
        changed = true;
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(plot->item(i));
        const std::optional<TextBox> box = item ? itemTextBox(item) : std::nullopt;
        if (!box)
            continue;
        const QRectF clip = item->clipToAxisRect() && item->clipAxisRect()
                                ? QRectF(item->clipAxisRect()->rect())
                                : canvas;
        // Past an edge: moved in (a label at a span's start, a count over the highest
        // bar, a panel title), or wrapped where it is wider than the room it has.
        double shift = 0.0;
        if (box->rect.right() > clip.right() + kSlack)
            shift = clip.right() - box->rect.right();
        else if (box->rect.left() < clip.left() - kSlack)
            shift = clip.left() - box->rect.left();
        double lift = 0.0;
        if (box->rect.top() < clip.top() - kSlack)
            lift = clip.top() - box->rect.top();
        else if (box->rect.bottom() > clip.bottom() + kSlack)
            lift = clip.bottom() - box->rect.bottom();
        if (shift == 0.0 && lift == 0.0)
            continue;
        const QString before = item->text();
        // A view may offer a shorter wording for print (kPrintShortText).
        const QString shorter = item->property(kPrintShortText).toString();
        if (!shorter.isEmpty() && shorter != before) {
            item->setText(shorter);
            m_undo.push_back([item = QPointer<QCPItemText>(item), before] {
                if (item)
                    item->setText(before);
            });
            changed = true;
            continue; // measured again in the next pass
        }
        const double room = clip.right() - box->rect.left();
        if (shift < 0.0 && room >= 0.4 * box->rect.width() && before.contains(QLatin1Char(' '))) {
            // Wrapped in the room right of its anchor rather than moved over a neighbour.
            item->setText(wrapped(before, item->font(), 0.95 * room));
            const std::optional<TextBox> narrower = itemTextBox(item);
            shift = narrower && narrower->rect.right() > clip.right()
                        ? clip.right() - narrower->rect.right()
                        : 0.0;
        } else if (box->rect.width() > clip.width()) {
            item->setText(wrapped(before, item->font(), 0.92 * clip.width()));
            const std::optional<TextBox> narrower = itemTextBox(item);
            shift = narrower && narrower->rect.right() > clip.right()
                        ? clip.right() - narrower->rect.right()
                        : 0.0;
        }
        const QPointF coords = item->position->coords();
        m_undo.push_back([item = QPointer<QCPItemText>(item), before, coords] {
            if (item) {
                item->setText(before);
                item->position->setCoords(coords);
            }
        });
        if (shift != 0.0 || lift != 0.0)
            item->position->setPixelPosition(item->position->pixelPosition() +
                                             QPointF(shift, lift));
        changed = true;
    }
    // A heading over its plot that grew upward when wrapped (a panel title in the plot's
    // top margin) and now runs into a title above: the plot's top margin grows by what
    // it lacks.
    std::vector<QRectF> titles;
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element);
            text && text->visible() && !text->text().isEmpty())
            titles.push_back(text->rect());
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(plot->item(i));
        const std::optional<TextBox> box = item ? itemTextBox(item) : std::nullopt;
        QCPAxis* keyAxis = item ? item->position->keyAxis() : nullptr;
        QCPAxisRect* rect = keyAxis ? keyAxis->axisRect() : nullptr;
        if (!box || !rect || box->rect.bottom() > rect->rect().top() + kSlack)
            continue;
        double lacking = 0.0;
        for (const QRectF& title : titles)
            if (overlap(title, box->rect))
                lacking = std::max(lacking, title.bottom() - box->rect.top() + 2.0);
        if (lacking <= 0.0)
            continue;
        const QMargins before = rect->minimumMargins();
        m_undo.push_back([rect = QPointer<QCPAxisRect>(rect), before] {
            if (rect)
                rect->setMinimumMargins(before);
        });
        QMargins more = before;
        more.setTop(std::max(before.top(), rect->margins().top()) + int(std::ceil(lacking)));
        rect->setMinimumMargins(more);
        return true; // laid out anew before anything else is measured
    }
    // Cell annotations that run into each other keep their first line, the value, all
    // of them alike (the details stay in the CSV and the window).
    std::vector<std::pair<QCPItemText*, QRectF>> placed;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPItemText*>(plot->item(i)))
            if (const std::optional<TextBox> box = itemTextBox(item))
                placed.push_back({item, box->rect});
    bool crowded = false;
    for (size_t i = 0; i < placed.size() && !crowded; ++i)
        for (size_t j = 0; j < placed.size() && !crowded; ++j)
            crowded = i != j && placed[i].first->text().contains(QLatin1Char('\n')) &&
                      overlap(placed[i].second, placed[j].second);
    if (crowded)
        for (const auto& [item, rect] : placed) {
            const QString before = item->text();
            if (!before.contains(QLatin1Char('\n')))
                continue;
            m_undo.push_back([item = QPointer<QCPItemText>(item), before] {
                if (item)
                    item->setText(before);
            });
            item->setText(before.section(QLatin1Char('\n'), 0, 0));
            changed = true;
        }
    if (changed)
        return true;
    // Values that still run into each other (an 8 x 8 overlap matrix, the counts over
    // 40 UpSet columns in a single column) are left out, all of their kind (font) alike:
    // the colours and axes carry the figure, the CSV every number.
    QSet<QString> crowdedFonts;
    for (size_t i = 0; i < placed.size(); ++i)
        for (size_t j = i + 1; j < placed.size(); ++j)
            if (placed[i].first->font() == placed[j].first->font() &&
                overlap(placed[i].second, placed[j].second))
                crowdedFonts.insert(placed[i].first->font().toString());
    for (const auto& [item, rect] : placed)
        if (crowdedFonts.contains(item->font().toString())) {
            m_undo.push_back([item = QPointer<QCPItemText>(item)] {
                if (item)
                    item->setVisible(true);
            });
            item->setVisible(false);
            changed = true;
        }
    return changed;
}

// Tick labels of a horizontal axis that collide are turned 45° and put on one line
// each ("snapkv\n0.5" -> "snapkv 0.5"), so that each is one strip of text.
bool PrintLayoutFit::turnCollidingLabels(QCPAxis* axis)
{
    const std::vector<TextBox> labels = tickLabels(axis);
    bool collide = false;
    for (size_t i = 1; i < labels.size() && !collide; ++i)
        collide = overlap(labels[i - 1].rect, labels[i].rect);
    if (!collide)
        return false;
    m_undo.push_back([axis = QPointer<QCPAxis>(axis), angle = axis->tickLabelRotation()] {
        if (axis)
            axis->setTickLabelRotation(angle);
    });
    axis->setTickLabelRotation(axis->axisType() == QCPAxis::atBottom ? -45.0 : 45.0);
    if (auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker())) {
        const QMap<double, QString> ticks = text->ticks();
        QMap<double, QString> oneLine;
        for (auto it = ticks.begin(); it != ticks.end(); ++it)
            oneLine.insert(it.key(),
                           QString(it.value()).replace(QLatin1Char('\n'), QLatin1Char(' ')));
        m_undo.push_back([text, ticks] { text->setTicks(ticks); });
        text->setTicks(oneLine);
    }
    return true;
}

namespace {
bool labelsCollide(QCPAxis* axis)
{
    const std::vector<TextBox> labels = tickLabels(axis);
    for (size_t i = 1; i < labels.size(); ++i)
        if (collide(axis, labels[i - 1], labels[i]))
            return true;
    return false;
}
} // namespace

// Computed tick labels that run into each other: fewer ticks.
bool PrintLayoutFit::thinCollidingTicks(QCPAxis* axis)
{
    const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
    if (!ticker || ticker->tickCount() <= 1 || !labelsCollide(axis))
        return false;
    const int before = ticker->tickCount();
    m_undo.push_back([ticker, before] { ticker->setTickCount(before); });
    ticker->setTickCount(before - 1);
    return true;
}

// Named tick labels that collide even turned: a smaller font, down to kSmallestLabelPt
// (5 pt still reads in print), then turned upright, then grouped; past that the labels
// stay as they are and the check reports them.
bool PrintLayoutFit::shrinkCollidingLabels(QCPAxis* axis)
{
    const QFont before = axis->tickLabelFont();
    if (!labelsCollide(axis))
        return false;
    if (before.pointSizeF() <= kSmallestLabelPt) {
        // Upright strips sit a whole tick apart, turned ones only sin 45° of it.
        if (axis->orientation() == Qt::Horizontal && std::abs(axis->tickLabelRotation()) < 90.0) {
            m_undo.push_back([axis = QPointer<QCPAxis>(axis), angle = axis->tickLabelRotation()] {
                if (axis)
                    axis->setTickLabelRotation(angle);
            });
            axis->setTickLabelRotation(axis->axisType() == QCPAxis::atBottom ? -90.0 : 90.0);
            return true;
        }
        return dropRepeatedFirstWords(axis);
    }
    m_undo.push_back([axis = QPointer<QCPAxis>(axis), before] {
        if (axis)
            axis->setTickLabelFont(before);
    });
    QFont smaller = before;
    smaller.setPointSizeF(std::max(kSmallestLabelPt, before.pointSizeF() * 0.8));
    axis->setTickLabelFont(smaller);
    return true;
}

// Named tick labels still colliding at the smallest font: a first word that repeats the
// label before it is left out ("snapkv 0.25", "0.5", "0.75", "tova 0.25", ...), as a
// paper's grouped axis reads.
bool PrintLayoutFit::dropRepeatedFirstWords(QCPAxis* axis)
{
    auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    if (!text)
        return false;
    const QMap<double, QString> ticks = text->ticks();
    QMap<double, QString> grouped;
    QString previousFirst;
    bool dropped = false;
    for (auto it = ticks.begin(); it != ticks.end(); ++it) {
        const QString label = it.value().simplified();
        const qsizetype space = label.indexOf(QLatin1Char(' '));
        const QString first = space > 0 ? label.left(space) : QString();
        if (!first.isEmpty() && first == previousFirst) {
            grouped.insert(it.key(), label.mid(space + 1));
            dropped = true;
        } else {
            grouped.insert(it.key(), it.value());
        }
        previousFirst = first;
    }
    if (!dropped)
        return false;
    m_undo.push_back([text, ticks] { text->setTicks(ticks); });
    text->setTicks(grouped);
    return true;
}

// A legend beside its plot that leaves the plot less than half the figure's width goes
// to the grid its view named for it (kPrintLegendBelow), in two columns where two fit.
bool PrintLayoutFit::moveSideLegendsBelow(QCustomPlot* plot, double canvasWidth)
{
    double widest = 0.0;
    for (QCPAxisRect* rect : plot->axisRects())
        widest = std::max(widest, double(rect->rect().width()));
    bool moved = false;
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        auto* legend = qobject_cast<QCPLegend*>(element);
        if (!legend || !legend->visible())
            continue;
        auto* below =
            qobject_cast<QCPLayoutGrid*>(legend->property(kPrintLegendBelow).value<QObject*>());
        if (!below || legend->layout() == below)
            continue;
        // Beside the plot: it moves when the plot gets under half the width. Inside the
        // plot: when every corner would hide data.
        std::function<void()> putBack;
        if (auto* grid = qobject_cast<QCPLayoutGrid*>(legend->layout())) {
            if (widest >= 0.5 * canvasWidth)
                continue;
            int index = -1;
            for (int i = 0; i < grid->elementCount(); ++i)
                if (grid->elementAt(i) == legend)
                    index = i;
            int row = 0, column = 0;
            grid->indexToRowCol(index, row, column);
            putBack = [grid = QPointer<QCPLayoutGrid>(grid), legend, row, column] {
                if (grid)
                    grid->addElement(row, column, legend);
            };
        } else if (auto* inset = qobject_cast<QCPLayoutInset*>(legend->layout())) {
            if (!insetLegendHidesData(legend))
                continue;
            int index = -1;
            for (int i = 0; i < inset->elementCount(); ++i)
                if (inset->elementAt(i) == legend)
                    index = i;
            const Qt::Alignment corner = inset->insetAlignment(index);
            putBack = [inset = QPointer<QCPLayoutInset>(inset), legend, corner] {
                if (inset)
                    inset->addElement(legend, corner);
            };
        } else {
            continue;
        }
        legend->layout()->take(legend);
        below->addElement(0, 0, legend);
        m_undo.push_back([legend = QPointer<QCPLegend>(legend),
                          below = QPointer<QCPLayoutGrid>(below), putBack] {
            if (!legend || !below)
                return;
            below->take(legend);
            putBack();
        });
        // A one-column list goes into two columns where they fit; a legend laid out in
        // columns of its own (colours beside line styles) keeps them. (Undone before the
        // move back: undo runs last change first.)
        const QMargins m = legend->margins();
        if (legend->columnCount() == 1 &&
            2 * widestLegendEntry(legend) + legend->columnSpacing() + m.left() + m.right() <=
                canvasWidth - 8)
            rewrapLegend(legend, 2);
        moved = true;
    }
    return moved;
}

// Lays the legend's entries out `perRow` to a row, in their order; undone with the rest.
void PrintLayoutFit::rewrapLegend(QCPLegend* legend, int perRow)
{
    const int wrap = legend->wrap();
    const QCPLayoutGrid::FillOrder order = legend->fillOrder();
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
    legend->setWrap(perRow);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    m_undo.push_back([legend = QPointer<QCPLegend>(legend), wrap, order] {
        if (!legend)
            return;
        legend->setWrap(wrap);
        legend->setFillOrder(order, true);
    });
}

// A one-row (or one-column) legend whose entries get less width than their text (the
// eviction map's roles in a single column) wraps into as many rows as it needs.
bool PrintLayoutFit::wrapSqueezedLegends(QCustomPlot* plot, double canvasWidth)
{
    bool changed = false;
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        auto* legend = qobject_cast<QCPLegend*>(element);
        if (!legend || !legend->visible() || legend->itemCount() < 2 ||
            (legend->rowCount() != 1 && legend->columnCount() != 1))
            continue;
        bool squeezed = false;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QCPAbstractLegendItem* item = legend->item(i))
                squeezed = squeezed || item->outerRect().width() + kSlack <
                                           item->minimumOuterSizeHint().width();
        if (!squeezed)
            continue;
        const double widest = widestLegendEntry(legend);
        // The room is the cell the legend stands in (under the plot's column), not the
        // whole figure.
        double room = canvasWidth - 16;
        if (legend->layout() && legend->layout()->rect().width() > 0)
            room = std::min(room, double(legend->layout()->rect().width()) - 4);
        const QMargins m = legend->margins();
        const int perRow = std::max(1, int((room - m.left() - m.right() + legend->columnSpacing()) /
                                           (widest + legend->columnSpacing())));
        if (perRow >= legend->itemCount())
            continue;
        rewrapLegend(legend, perRow);
        changed = true;
    }
    return changed;
}

PrintLayoutFit::PrintLayoutFit(QCustomPlot* plot, QSize layoutSize)
{
    // A wrapped footer takes height, the plot then gets less, a colour scale beside it
    // other tick labels: a few passes settle it.
    // A pass that changes nothing has laid out the current texts already; only after a
    // pass that changed something is one more layout (a full render) needed.
    for (int pass = 0; pass < 8; ++pass)
        if (!fitOnce(plot, layoutSize))
            return;
    layOutAt(plot, layoutSize);
}

PrintLayoutFit::~PrintLayoutFit()
{
    for (auto it = m_undo.rbegin(); it != m_undo.rend(); ++it)
        (*it)();
}

} // namespace kvl
