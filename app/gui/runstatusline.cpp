#include "runstatusline.h"

#include "missingrowstext.h"
#include "runviewdata.h"

#include <QCoreApplication>

namespace kvl {

RunStatusLine runStatusLine(const RunViewData& data, bool verified)
{
    QString rows = QCoreApplication::translate("kvl::MainWindow", "%n sample(s), %1 rows", nullptr,
                                               int(data.sampleCount))
                       .arg(data.resultCount);
    // Rows of a schema-2 file carry no checksum: say they were read unverified.
    if (!verified)
        rows += QCoreApplication::translate("kvl::MainWindow", " (checking the rows' checksums…)");
    else if (data.uncheckedRows > 0)
        rows += QCoreApplication::translate("kvl::MainWindow",
                                            " (%1 written before checksums, not verified)")
                    .arg(data.uncheckedRows);
    const MissingRowsText missing = MissingRowsText::of(data.missing);
    rows += missing.summary;
    QStringList tip;
    if (!missing.detail.isEmpty())
        tip << missing.detail;
    // An imported run says where it came from, and what its source lacked (a release copy
    // without some diagnostics): its taxonomy stands on the rows that have them.
    if (!data.importedFrom.isEmpty()) {
        rows += QCoreApplication::translate("kvl::MainWindow", " · imported from %1")
                    .arg(data.importedFrom);
        if (!data.importMissing.isEmpty())
            rows += QCoreApplication::translate("kvl::MainWindow", ", %n part(s) not in the source",
                                                nullptr, int(data.importMissing.size()));
        for (const QString& m : data.importMissing)
            tip << QCoreApplication::translate("kvl::MainWindow", "Not in the source: %1").arg(m);
    }
    const bool running = data.status == QLatin1String("running");
    const QString text =
        running && data.sampleCount == 0
            ? QCoreApplication::translate("kvl::MainWindow",
                                          "%1: no sample finished; the file says 'running' (a "
                                          "run cancelled before its first sample stays so)")
                  .arg(data.path)
        : running ? QCoreApplication::translate("kvl::MainWindow", "%1: %2, still running")
                        .arg(data.path, rows)
                  : QCoreApplication::translate("kvl::MainWindow", "%1: %2").arg(data.path, rows);
    return {text, tip.join(QLatin1Char('\n'))};
}

} // namespace kvl
