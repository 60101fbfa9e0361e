// import-run's sources on arbitrary bytes: the `rows` format's reader (CSV with quoted
// fields across lines, or JSONL; gzipped when the bytes say so) through to the checked
// run, and the CSV and JSONL readers on their own. What imports must also write: a run
// the builder accepted is one the store takes.

#include "common/error.h"
#include "fuzztarget.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"

#include <QFile>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes = kvl::fuzz::bytesOf(data, size);
    try {
        kvl::parseCsvTable(bytes, QStringLiteral("fuzz.csv"));
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    try {
        kvl::forEachJsonlRecord(bytes, QStringLiteral("fuzz.jsonl"), [](const QJsonObject&, int) {});
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    const QString path = kvl::fuzz::writeTempFile(bytes, QStringLiteral("rows.csv"));
    kvl::ImportedRun run;
    try {
        run = kvl::importResultRows({path});
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
        return 0;
    }
    // One output path for every input (removed after each): found once, not per input.
    static const QString out =
        kvl::fuzz::writeTempFile(QByteArray(), QStringLiteral("unused")) + QStringLiteral(".kvl");
    try {
        kvl::writeImportedRun(run, out, QStringLiteral("fuzz"));
    } catch (const kvl::Error& e) {
        qFatal("an accepted import does not write: %s", e.what());
    }
    QFile::remove(out);
    return 0;
}
