// `tasks import`: every dataset format's importer on the same arbitrary bytes (a released
// file of LongBench, RULER, HotpotQA, Qasper, IFEval, ... as it may arrive damaged). The
// first byte picks the format, the rest is the file, so each format's corpus entries reach
// their own importer. KVDiagnosis rows get a one-sample source to join to. What an
// importer returns must be samples the schema accepts (importDataset checks them).

#include "common/error.h"
#include "fuzztarget.h"
#include "tasks/datasetimporters.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<kvl::DatasetFormat>& formats = kvl::datasetFormats();
    if (size == 0 || formats.empty())
        return 0;
    const kvl::DatasetFormat& format = formats[data[0] % formats.size()];
    const QString path = kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data + 1, size - 1),
                                                  QStringLiteral("input"));
    // The same source for every input: written once, not per input.
    static const QString sourcePath = kvl::fuzz::writeTempFile(
        R"({"id": "niah_multikey_1_000000", "suite": "ruler", "context": "The key is 42.", )"
        R"("question": "What is the key?", "answer": "42"})"
        "\n",
        QStringLiteral("source.jsonl"));
    kvl::ImportOptions options;
    options.sourcePath = sourcePath;
    try {
        kvl::importDataset(format.name, path, options);
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
