#include "batchexport.h"

#include "common/error.h"
#include "guioptions.h"
#include "store/runreader.h"
#include "storerunloader.h"
#include "views/accuracyratioview.h"
#include "views/csvtable.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/figureexporter.h"
#include "views/gerconsensusview.h"
#include "views/heatmapview.h"
#include "views/overlapmatrixview.h"
#include "views/ratiocurvesview.h"
#include "views/taxonomyview.h"

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
#include <memory>

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

// "SnapKV (window 32)" -> "snapkv-window-32": file names that survive any shell.
QString slug(const QString& text)
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

QString ratioTag(double ratio)
{
    return QStringLiteral("r%1").arg(ratio);
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
        if (c.compressor != QLatin1String("FullCache"))
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

// Paper text sizes for the time of an export: the screen's font is too large for a
// 3.5 in column (titles and footers clip). Views take their fonts from the app's
// when built, so this goes first; the destructor gives the screen font back.
class PaperFont
{
  public:
    explicit PaperFont(double pointSize) : m_saved(QApplication::font())
    {
        QFont font = m_saved;
        font.setPointSizeF(pointSize);
        QApplication::setFont(font);
    }
    ~PaperFont() { QApplication::setFont(m_saved); }

  private:
    QFont m_saved;
};

// One figure of the export: a filled view and its height over its width.
struct Figure
{
    QString name;
    PlotView* view = nullptr;
    double aspect = 0.62;
};

class Exporter
{
  public:
    Exporter(const GuiOptions& options, const RunViewData& data, const RunInfo& info,
             const QString& runHash)
        : m_options(options), m_data(data), m_root(std::make_unique<QWidget>())
    {
        m_base.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
        m_base.model = data.provenanceModel();
        m_base.runHash = runHash;
        m_base.modelHash = info.modelHash;
        m_base.runToolVersion = info.toolVersion;
        m_base.configuration = configurationOf(data);
    }

    void collect();
    void write(BatchExportReport& report);

  private:
    template <typename View> View* make(View* view, const Provenance& provenance)
    {
        view->setParent(m_root.get());
        view->setProvenance(withBase(provenance));
        return view;
    }
    Provenance withBase(Provenance p) const
    {
        p.run = m_base.run;
        p.model = m_base.model;
        p.runHash = m_base.runHash;
        p.modelHash = m_base.modelHash;
        p.runToolVersion = m_base.runToolVersion;
        p.configuration = m_base.configuration;
        return p;
    }
    // Adds the view when setData left it holding data, else lists it as skipped.
    void add(const QString& name, PlotView* view, double aspect, const QString& reason)
    {
        if (view->hasData())
            m_figures.push_back({name, view, aspect});
        else
            m_skipped << QStringLiteral("%1: %2").arg(name, reason);
    }
    QStringList metadata(const PlotView* view) const;
    QString accuracyBySuiteCsv() const;

    const GuiOptions& m_options;
    const RunViewData& m_data;
    std::unique_ptr<QWidget> m_root; // parent of every view; never shown
    Provenance m_base;
    std::vector<Figure> m_figures;
    QStringList m_skipped;
    std::vector<std::pair<QString, const AccuracyRatioView*>> m_suiteViews;
};

void Exporter::collect()
{
    const Provenance none;
    auto* accuracy = make(new AccuracyRatioView, none);
    accuracy->setData(m_data.accuracy);
    add(QStringLiteral("accuracy"), accuracy, 0.62, tr("no accuracy rows in the run"));
    if (m_data.suites.size() > 1) {
        for (int i = 0; i < m_data.suites.size(); ++i) {
            const QString suite = m_data.suites[i];
            Provenance p;
            p.note = QStringLiteral("suite: %1").arg(suite);
            auto* view = make(new AccuracyRatioView, p);
            view->setTitle(QStringLiteral("%1 · %2").arg(view->title(), suite));
            view->setData(m_data.suiteAccuracy.value(i));
            m_suiteViews.emplace_back(suite, view);
            add(QStringLiteral("accuracy-%1").arg(slug(suite)), view, 0.62,
                tr("no accuracy rows for the suite"));
        }
    } else {
        m_skipped << QStringLiteral("accuracy per suite: %1")
                         .arg(m_data.suites.isEmpty()
                                  ? tr("the run has no suite")
                                  : tr("the run has one suite (%1): accuracy is it")
                                        .arg(m_data.suites.value(0)));
    }
    auto* taxonomy = make(new TaxonomyView, none);
    taxonomy->setData(m_data.taxonomy);
    add(QStringLiteral("taxonomy"), taxonomy, 0.62, tr("no C→W row with a failure signature"));
    auto* chain = make(new TaxonomyView(tr("Where multihop C→W rows leave the gold chain"), {},
                                        QStringLiteral("break")),
                       none);
    chain->setData(m_data.chainBreaks);
    add(QStringLiteral("chain-breaks"), chain, 0.62, tr("no multihop C→W rows"));

    if (m_data.overlaps.isEmpty())
        m_skipped << QStringLiteral("overlap, failure-sets: %1")
                         .arg(tr("no ratio with two compressors and samples"));
    for (int i = 0; i < m_data.overlaps.size(); ++i) {
        const QString tag = ratioTag(m_data.overlapRatios.value(i));
        auto* overlap = make(new OverlapMatrixView, none);
        overlap->setData(m_data.overlaps[i]);
        add(QStringLiteral("overlap-%1").arg(tag), overlap, 0.8, tr("no failures to overlap"));
        auto* sets = make(new FailureSetsView, none);
        sets->setData(m_data.failureSets.value(i));
        add(QStringLiteral("failure-sets-%1").arg(tag), sets, 0.75,
            tr("no compressor fails a sample at this ratio"));
    }

    const QString focus = m_data.focus.compressor.isEmpty()
                              ? QString()
                              : QStringLiteral("-%1-%2").arg(slug(m_data.focus.compressor),
                                                             ratioTag(m_data.focus.ratio));
    auto* reference = make(new HeatmapView, m_data.referenceProvenance);
    reference->setTitle(tr("Question attention · FullCache"));
    if (!m_data.referenceHeatmap.isEmpty())
        reference->setData(m_data.referenceHeatmap);
    add(QStringLiteral("heatmap-fullcache"), reference, 0.5,
        m_data.referenceMissing.isEmpty() ? tr("no FullCache attention stored")
                                          : m_data.referenceMissing);
    auto* heatmap = make(new HeatmapView, m_data.heatmapProvenance);
    heatmap->setTitle(tr("Question attention · %1").arg(m_data.focus.label()));
    if (!m_data.heatmap.isEmpty())
        heatmap->setData(m_data.heatmap);
    add(QStringLiteral("heatmap%1").arg(focus), heatmap, 0.5,
        m_data.heatmapMissing.isEmpty() ? tr("no attention stored") : m_data.heatmapMissing);
    auto* eviction = make(new EvictionMapView, m_data.evictionProvenance);
    if (!m_data.eviction.isEmpty())
        eviction->setData(m_data.eviction);
    add(QStringLiteral("eviction%1").arg(focus), eviction, 0.62,
        m_data.evictionMissing.isEmpty() ? tr("no kept mask stored") : m_data.evictionMissing);
    Provenance gerProvenance;
    gerProvenance.compressor = m_data.focus.compressor;
    auto* ger = make(new GerConsensusView, gerProvenance);
    if (!m_data.ger.isEmpty())
        ger->setData(m_data.ger);
    add(QStringLiteral("ger-consensus-%1").arg(slug(m_data.focus.compressor)), ger, 0.62,
        tr("no per-layer GER stored for %1").arg(m_data.focus.compressor));

    const struct
    {
        const char* name;
        const char* title;
        const RatioCurves& curves;
        const char* reason;
    } curves[] = {
        {"span-keep", "Instruction span keep rate vs compression ratio", m_data.spanKeep,
         "no instruction spans in the run"},
        {"leakage", "System-prompt leakage vs compression ratio", m_data.leakage,
         "no leakage measured in the run"},
        {"interventions", "Intervention repair rate: attention boost vs sham", m_data.interventions,
         "no interventions in the run"},
        {"retrieval-recall", "Evidence recall of retrieval vs compression ratio",
         m_data.offload.recall, "no offloading in the run"},
        {"offload-score", "Task score by landmark kind and chunk size", m_data.offload.score,
         "no offloading in the run"},
        {"decoding-evidence", "Evidence kept while decoding, after each compression",
         m_data.decodingEvidence, "no compression during decoding in the run"},
    };
    for (const auto& c : curves) {
        auto* view = make(new RatioCurvesView(tr(c.title), {}), none);
        if (!c.curves.isEmpty())
            view->setData(c.curves);
        add(QString::fromLatin1(c.name), view, 0.62, tr(c.reason));
    }
}

// Every suite's accuracy in one table with the suite as a key column (the per-suite
// CSVs name theirs only in a '#' line), for a plot script that facets by suite.
QString Exporter::accuracyBySuiteCsv() const
{
    QString text;
    for (const auto& [suite, view] : m_suiteViews) {
        if (!view->hasData())
            continue;
        const QStringList lines = view->csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (text.isEmpty() && !lines.isEmpty())
            text += QStringLiteral("suite,") + lines.constFirst() + QLatin1Char('\n');
        for (qsizetype i = 1; i < lines.size(); ++i)
            text += CsvTable::escape(suite) + QLatin1Char(',') + lines[i] + QLatin1Char('\n');
    }
    return text;
}

QStringList Exporter::metadata(const PlotView* view) const
{
    const Provenance p = view->provenance();
    QStringList lines{view->title(), p.toText()};
    lines << p.detailLines();
    lines << QStringLiteral("run file: %1").arg(QFileInfo(m_data.path).absoluteFilePath());
    lines << QStringLiteral("exported: %1 by %2")
                 .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                      FigureExporter::toolName());
    return lines;
}

void Exporter::write(BatchExportReport& report)
{
    report.skipped = m_skipped;
    if (m_figures.empty())
        throw Error(
            m_data.path,
            tr("the run holds nothing to draw (%1)").arg(m_skipped.join(QStringLiteral("; "))));
    const double width = m_options.exportSize == QLatin1String("single") ? 3.5 : 7.0;
    const QDir dir(m_options.exportDir);
    for (const Figure& f : m_figures) {
        FigureExporter::PrintSize size;
        size.widthInches = width;
        size.heightInches = width * f.aspect;
        size.dpi = m_options.exportDpi;
        for (const QString& format : m_options.exportFormats) {
            const QString path = dir.filePath(QStringLiteral("%1.%2").arg(f.name, format));
            const Provenance p = f.view->provenance();
            if (format == QLatin1String("csv"))
                FigureExporter::saveCsv(path, f.view->csv(), p.toText(), p.detailLines());
            else
                FigureExporter::savePrintFigure(f.view->plot(), path, size, f.view->title(),
                                                metadata(f.view),
                                                m_options.exportFooter ? p.toText() : QString());
            report.written << path;
        }
    }
    if (m_options.exportFormats.contains(QLatin1String("csv"))) {
        const QString table = accuracyBySuiteCsv();
        if (!table.isEmpty()) {
            const QString path = dir.filePath(QStringLiteral("accuracy-by-suite.csv"));
            Provenance p = withBase({});
            p.note = QStringLiteral("accuracy of each suite");
            FigureExporter::saveCsv(path, table, p.toText(), p.detailLines());
            report.written << path;
        }
    }
}

} // namespace

BatchExportReport exportRunFigures(const GuiOptions& options)
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
    // 7 pt in a single column, 8 pt across two: journal body text is 9-10 pt.
    const PaperFont font(options.exportSize == QLatin1String("single") ? 7.0 : 8.0);
    Exporter exporter(options, data, info, report.runHash);
    exporter.collect();
    exporter.write(report);
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
