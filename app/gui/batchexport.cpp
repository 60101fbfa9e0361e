#include "batchexport.h"

#include "batchfigures.h"
#include "paperfont.h"
#include "views/plotview.h"

#include "common/error.h"
#include "guioptions.h"
#include "store/runreader.h"
#include "storerunloader.h"
#include "views/figureexporter.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QTextStream>

#include <map>

namespace kvl {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("kvl::BatchExport", text);
}

// The whole file, not its run row: two runs with one spec but other rows must differ.
// Hashing streams at disk speed (a 1 GB run file takes a second or two).
QString sha256Of(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path, tr("cannot read the run file: %1").arg(file.errorString()));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        throw Error(path, tr("cannot read the run file: %1").arg(file.errorString()));
    return QString::fromLatin1(hash.result().toHex());
}

// Creates the folder and proves it takes a file, before any work is done.
void checkOutputFolder(const QString& dir)
{
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        throw Error(dir, tr("the output folder is a file"));
    if (!QDir().mkpath(dir))
        throw Error(dir, tr("cannot create the output folder"));
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".kvlens-export-XXXXXX")));
    if (!probe.open())
        throw Error(dir, tr("cannot write in the output folder: %1").arg(probe.errorString()));
}

// The run's configurations in one line: "FullCache; SnapKV @ 0.5, 0.75 · suites: niah ·
// 4 samples, 16 rows".
QString configurationOf(const RunViewData& data)
{
    std::map<QString, QStringList> ratios;
    QStringList order;
    for (const ConfigChoice& c : data.configs) {
        if (!ratios.count(c.compressor))
            order << c.compressor;
        if (c.compressor != kFullCacheCompressor)
            ratios[c.compressor] << QString::number(c.ratio);
        else
            ratios[c.compressor];
    }
    QStringList parts;
    for (const QString& name : order)
        parts << (ratios[name].isEmpty() ? name
                                         : QStringLiteral("%1 @ %2").arg(
                                               name, ratios[name].join(QStringLiteral(", "))));
    QString text = parts.join(QStringLiteral("; "));
    if (!data.suites.isEmpty())
        text += QStringLiteral(" · suites: %1").arg(data.suites.join(QStringLiteral(", ")));
    text += QStringLiteral(" · %1 samples, %2 rows").arg(data.sampleCount).arg(data.resultCount);
    return text;
}

QStringList metadata(const PlotView* view, const QString& runPath)
{
    const Provenance p = view->provenance();
    QStringList lines{view->title(), p.toText()};
    lines << p.detailLines();
    lines << QStringLiteral("run file: %1").arg(QFileInfo(runPath).absoluteFilePath());
    lines << QStringLiteral("exported: %1 by %2")
                 .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                      FigureExporter::toolName());
    return lines;
}

void write(const BatchFigures& figures, const GuiOptions& options, BatchExportReport& report)
{
    const RunViewData& data = figures.data();
    report.skipped = figures.skipped();
    if (figures.figures().empty())
        throw Error(data.path, tr("the run holds nothing to draw (%1)")
                                   .arg(figures.skipped().join(QStringLiteral("; "))));
    const double width = options.exportSize == QLatin1String("single") ? 3.5 : 7.0;
    const QDir dir(options.exportDir);
    for (const BatchFigures::Figure& f : figures.figures()) {
        FigureExporter::PrintSize size;
        size.widthInches = width;
        size.heightInches = f.heightAt(width);
        size.dpi = options.exportDpi;
        for (const QString& format : options.exportFormats) {
            const QString path = dir.filePath(QStringLiteral("%1.%2").arg(f.name, format));
            const Provenance p = f.view->provenance();
            if (format == QLatin1String("csv"))
                FigureExporter::saveCsv(path, f.view->csv(), p.toText(), p.detailLines());
            else
                FigureExporter::savePrintFigure(f.view->plot(), path, size, f.view->title(),
                                                metadata(f.view, data.path),
                                                options.exportFooter ? p.toText() : QString());
            report.written << path;
        }
    }
    if (!options.exportFormats.contains(QLatin1String("csv")))
        return;
    for (const BatchFigures::Table& t : figures.tables()) {
        const QString path = dir.filePath(QStringLiteral("%1.csv").arg(t.name));
        Provenance p = figures.withBase({});
        p.note = t.note;
        FigureExporter::saveCsv(path, t.csv, p.toText(), p.detailLines());
        report.written << path;
    }
}

} // namespace

BatchExportReport exportRunFigures(const GuiOptions& options, const PageRegistry& registry)
{
    const QString& path = options.exportRun;
    if (!QFileInfo(path).isFile())
        throw Error(path, QFileInfo::exists(path) ? tr("not a file") : tr("no such file"));
    checkOutputFolder(options.exportDir);
    BatchExportReport report;
    RunInfo info;
    {
        RunReader reader(path); // throws for a foreign or damaged file, naming it
        info = reader.runInfo();
    }
    const RunViewData data = loadRunViewData(RunRequest{path, {}, -1.0, {}});
    report.runHash = sha256Of(path);
    const PaperFont font(
        PaperFont::pointSizeFor(options.exportSize == QLatin1String("single") ? 3.5 : 7.0));
    Provenance base;
    base.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
    base.model = data.provenanceModel();
    base.runHash = report.runHash;
    base.modelHash = info.modelHash;
    base.runToolVersion = info.toolVersion;
    base.configuration = configurationOf(data);
    BatchFigures figures(data, base);
    for (const PageEntry& page : registry.entries())
        if (page.exportFigures)
            page.exportFigures(figures);
    write(figures, options, report);
    return report;
}

int runBatchExport(const GuiOptions& options, QTextStream& out, QTextStream& err)
{
    try {
        const BatchExportReport report = exportRunFigures(options);
        for (const QString& path : report.written)
            out << "wrote " << path << '\n';
        for (const QString& skip : report.skipped)
            out << "skipped " << skip << '\n';
        out << report.written.size() << " files written, " << report.skipped.size()
            << " views skipped (run sha256 " << report.runHash << ")\n";
        out.flush();
        return 0;
    } catch (const Error& e) {
        err << "kvlens --export-figures: error: " << e.message() << '\n';
        err.flush();
        return 1;
    }
}

} // namespace kvl
