#pragma once

#include "pageregistry.h"

#include <QString>
#include <QStringList>

class QTextStream;

namespace kvl {

struct GuiOptions;

// What a batch export wrote and what it left out.
struct BatchExportReport
{
    QStringList written; // paths, in the order written
    QStringList skipped; // "name: reason", one per view without data
    QString runHash;     // SHA-256 of the whole .kvl file (hex)
};

// `kvlens --export-figures RUN.kvl --out DIR`: loads the run with the app's loader,
// fills every view that has data (widgets built but never shown) and writes one file
// per view and format into DIR (created if missing), named after the view
// (accuracy.pdf, overlap-r0.75.csv). Figures carry the provenance in their metadata
// and, unless turned off, a footer; CSVs in '#' lines. Throws kvl::Error naming the
// file for a missing, foreign or damaged run file, an unwritable folder, or a run
// with nothing to draw. Needs a QApplication.
// Every page of `registry` adds its figures (PageEntry::exportFigures), in its order.
BatchExportReport exportRunFigures(const GuiOptions& options,
                                   const PageRegistry& registry = PageRegistry::standard());

// exportRunFigures for main(): "wrote PATH" / "skipped NAME: reason" lines on `out`,
// the error on `err`; returns the exit code (0, or 1 on an error).
int runBatchExport(const GuiOptions& options, QTextStream& out, QTextStream& err);

} // namespace kvl
