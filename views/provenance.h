#pragma once

#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>

namespace kvl {

// Where a figure's data came from. Every export carries it, so a PNG found in a
// paper draft months later still says which run, model and configuration it shows.
struct Provenance
{
    QString run;
    QString model;
    QString compressor;
    double ratio = std::numeric_limits<double>::quiet_NaN();
    int layer = -1;
    int head = -1;
    QString note;

    bool isEmpty() const
    {
        return run.isEmpty() && model.isEmpty() && compressor.isEmpty() && std::isnan(ratio) &&
               layer < 0 && head < 0 && note.isEmpty();
    }

    // One line, "key: value" pairs separated by " · ", in a fixed order.
    QString toText() const
    {
        QStringList parts;
        if (!run.isEmpty())
            parts << QStringLiteral("run: %1").arg(run);
        if (!model.isEmpty())
            parts << QStringLiteral("model: %1").arg(model);
        if (!compressor.isEmpty())
            parts << QStringLiteral("compressor: %1").arg(compressor);
        if (!std::isnan(ratio))
            parts << QStringLiteral("ratio: %1").arg(ratio);
        if (layer >= 0)
            parts << QStringLiteral("layer: %1").arg(layer);
        if (head >= 0)
            parts << QStringLiteral("head: %1").arg(head);
        if (!note.isEmpty())
            parts << note;
        return parts.join(QStringLiteral(" · "));
    }
};

} // namespace kvl
