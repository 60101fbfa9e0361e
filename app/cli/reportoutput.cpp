#include "reportoutput.h"

#include "clioutput.h"

#include "common/error.h"
#include "store/runreader.h"
#include "store/runreport.h"

#include <cstdio>

namespace kvl::cli {

void checkReportFormat(const QString& format)
{
    if (format != QLatin1String("text") && format != QLatin1String("csv") &&
        format != QLatin1String("json"))
        throw Error(QStringLiteral("unknown --format '%1' (text, csv or json)").arg(format));
}

void printRunReport(RunReader& reader, const QString& format, EmptyTables empty)
{
    if (format == QLatin1String("json")) {
        printJson(runReportJson(reader));
        return;
    }
    const QByteArray text = (format == QLatin1String("csv") ? runReportCsv(reader, empty)
                                                            : runReportText(reader, empty))
                                .toUtf8();
    std::fwrite(text.constData(), 1, std::size_t(text.size()), stdout);
    std::fflush(stdout);
}

} // namespace kvl::cli
