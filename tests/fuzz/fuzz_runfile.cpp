// Run files: arbitrary bytes as a .kvl file, opened read-only (openRunFile's checks and
// migrations), then read the way the desktop app and `report` read one: aggregates,
// row checksums, and a few rows' blobs and details.

#include "common/error.h"
#include "fuzztarget.h"
#include "store/runreader.h"

#include <QFile>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString path =
        kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data, size), QStringLiteral("run.kvl"));
    // A migration of an old schema writes WAL files beside it; start each input clean.
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    try {
        kvl::RunReader reader(path);
        reader.runInfo();
        reader.configs();
        reader.samples();
        reader.results();
        reader.accuracy();
        reader.transitions();
        reader.signatureTotals();
        reader.failureOverlaps();
        reader.failureSets();
        reader.spanKeepByOrder();
        reader.leakage();
        reader.layerStatsByLayer();
        reader.interventionRatesByGroup();
        reader.retrievalRows();
        reader.verifyRowChecksums();
        // The per-row reads a drill-down makes: blobs decoded, checksums checked.
        int drilled = 0;
        for (const kvl::StoredResult& r : reader.results()) {
            if (++drilled > 8)
                break;
            reader.mask(r.sampleId, r.configId);
            reader.attention(r.sampleId, r.configId);
            reader.retrieval(r.sampleId, r.configId);
            reader.layerStats(r.sampleId, r.configId);
            reader.spanKeeps(r.sampleId, r.configId);
            reader.interventions(r.sampleId, r.configId);
        }
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
