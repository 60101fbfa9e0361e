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
    // Identity of the data behind the figure, for the file's metadata and the CSV
    // header (too long for the one-line footer): the run file's SHA-256, the store's
    // model identity hash, the KVLens that wrote the run, the run's configurations.
    QString runHash;
    QString modelHash;
    QString runToolVersion;
    QString configuration;

    bool isEmpty() const
    {
        return run.isEmpty() && model.isEmpty() && compressor.isEmpty() && std::isnan(ratio) &&
               layer < 0 && head < 0 && note.isEmpty() && runHash.isEmpty() &&
               modelHash.isEmpty() && runToolVersion.isEmpty() && configuration.isEmpty();
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

    // The identity fields that are set, one "key: value" line each, in a fixed order.
    QStringList detailLines() const
    {
        QStringList lines;
        if (!runHash.isEmpty())
            lines << QStringLiteral("run sha256: %1").arg(runHash);
        if (!modelHash.isEmpty())
            lines << QStringLiteral("model hash: %1").arg(modelHash);
        if (!runToolVersion.isEmpty())
            lines << QStringLiteral("run written by: KVLens %1").arg(runToolVersion);
        if (!configuration.isEmpty())
            lines << QStringLiteral("configuration: %1").arg(configuration);
        return lines;
    }
};

} // namespace kvl
