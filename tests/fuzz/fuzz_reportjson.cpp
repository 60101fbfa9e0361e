// `kvlens-cli report`'s JSON reader. The report writes JSON and nothing reads that back;
// what it reads as JSON is the JSON text a run file carries in its columns: the run's
// spec_json (whose "imported" provenance the report prints), each sample's spans_json and
// meta_json, each config's params_json and each result's compliance_json, extra_json,
// layer_json and span_keep_json. A damaged or hand-made run file puts any bytes there.
// fuzz_runfile mutates whole files, which rarely leaves SQLite's pages intact enough to
// reach these; this target keeps a valid run file (the runfile corpus's run_current,
// migrated once) and puts the input into one column, then reads the file as `report`
// does: row checksums verified, then the report as JSON, CSV or text.
//
// Input: the first byte picks the column (bits 0-2, in the order above), whether only the
// first row gets the bytes (bit 3; else every row), the format (bits 4-5: 0 json, 1 csv,
// else text) and whether the report is restricted to the suite "retrieval" (bit 6,
// `report --suite`); the rest is the column's text, as raw bytes (not necessarily UTF-8).
// Result rows are re-stamped with their checksum (as the writer would), so the report
// reads them instead of stopping at the check. Each input starts from the unchanged file:
// the previous input's table is restored first.

#include "common/error.h"
#include "fuzztarget.h"
#include "store/resultcolumns.h"
#include "store/runfile.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/sqlitestatement.h"

#include <QFile>
#include <QJsonDocument>

#include <cstdlib>

namespace {

struct Column
{
    const char* table;
    const char* name;
    const char* rowKey; // orders the rows, for "first row only"
};

const Column kColumns[8] = {
    {"run", "spec_json", "id"},
    {"sample", "spans_json", "id"},
    {"sample", "meta_json", "id"},
    {"config", "params_json", "id"},
    {"result", "compliance_json", "sample_id, config_id"},
    {"result", "extra_json", "sample_id, config_id"},
    {"result", "layer_json", "sample_id, config_id"},
    {"result", "span_keep_json", "sample_id, config_id"},
};

// One writable connection to a private copy of the template, set up once per process
// (not per input): the copy, its migration to the current schema and WAL, and a pristine
// copy of each table in the connection's TEMP schema to restore from.
struct Template
{
    QString path;
    std::unique_ptr<kvl::SqliteDatabase> writer;
    const char* dirtyTable = nullptr; // the table the last input changed

    Template()
    {
        const QString source = QStringLiteral(KVLENS_FUZZ_CORPUS "/fuzz_runfile/run_current");
        path = kvl::fuzz::writeTempFile(QByteArray(), QStringLiteral("report.kvl"));
        QFile::remove(path);
        if (!QFile::copy(source, path) ||
            !QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner)) {
            std::fprintf(stderr, "fuzz: cannot copy %s\n", qPrintable(source));
            std::abort(); // the fuzzer's environment, not the target
        }
        writer = kvl::openRunFile(path, kvl::SqliteDatabase::Mode::ReadWriteCreate);
        // The fuzzer's own writes need not survive a power cut.
        writer->exec(QStringLiteral("PRAGMA synchronous=OFF"));
        for (const char* table : {"run", "sample", "config", "result"})
            writer->exec(QStringLiteral("CREATE TEMP TABLE pristine_%1 AS SELECT * FROM main.%1")
                             .arg(QLatin1String(table)));
    }

    void restore()
    {
        if (!dirtyTable)
            return;
        writer->exec(QStringLiteral("DELETE FROM main.%1; INSERT INTO main.%1 SELECT * FROM "
                                    "temp.pristine_%1")
                         .arg(QLatin1String(dirtyTable)));
        dirtyTable = nullptr;
    }

    void put(const Column& column, const QByteArray& text, bool firstRowOnly)
    {
        writer->exec(QStringLiteral("BEGIN"));
        restore();
        dirtyTable = column.table;
        const QString table = QLatin1String(column.table);
        QString sql = QStringLiteral("UPDATE main.%1 SET %2 = CAST(?1 AS TEXT)")
                          .arg(table, QLatin1String(column.name));
        if (firstRowOnly)
            sql += QStringLiteral(" WHERE (%1) IN (SELECT %1 FROM main.%2 ORDER BY %1 LIMIT 1)")
                       .arg(QLatin1String(column.rowKey), table);
        kvl::SqliteStatement update = writer->prepare(sql);
        update.bind(1, text); // a blob, cast to text: the bytes as they are
        update.run();
        if (table == QLatin1String("result"))
            writer->exec(QStringLiteral("UPDATE main.result SET row_checksum = %1")
                             .arg(kvl::resultChecksumSql(QStringLiteral("result"))));
        writer->exec(QStringLiteral("COMMIT"));
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static Template tmpl;
    if (size == 0)
        return 0;
    const Column& column = kColumns[data[0] & 7];
    tmpl.put(column, kvl::fuzz::bytesOf(data + 1, size - 1), (data[0] & 8) != 0);
    try {
        kvl::RunReader reader(tmpl.path);
        if (data[0] & 0x40)
            reader.restrictToSuite(QStringLiteral("retrieval"));
        reader.verifyRowChecksums();
        // One format per input, as one `report` prints one: building the report (its
        // queries) is most of an execution, the same for each format.
        switch ((data[0] >> 4) & 3) {
        case 0:
            QJsonDocument(kvl::runReportJson(reader)).toJson();
            break;
        case 1:
            kvl::runReportCsv(reader);
            break;
        default:
            kvl::runReportText(reader);
            break;
        }
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
