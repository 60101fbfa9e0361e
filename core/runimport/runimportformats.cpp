#include "runimport/runimportformats.h"

namespace kvl {

const std::vector<RunImportFormat>& runImportFormats()
{
    static const std::vector<RunImportFormat> formats = {
        {"kvdiagnosis",
         "a checkout or copy of the KVDiagnosis release (ChosenQC/KVDiagnosis): its FullCache "
         "ledger, every compressed run, and the diagnosed C->W rows it holds",
         &importKvDiagnosisRelease},
        {"kvpress",
         "result folders of NVIDIA kvpress's evaluation/evaluate.py (predictions.csv, "
         "metrics.json, config.yaml), one per dataset x model x press x ratio",
         &importKvpressResults},
        {"rows",
         "CSV or JSONL files with one row per sample x configuration: sample_id, compressor, "
         "ratio, correct (optional: suite, score, prediction, answer, diagnostics, signature)",
         &importResultRows},
    };
    return formats;
}

const RunImportFormat* findRunImportFormat(const QString& name)
{
    for (const RunImportFormat& f : runImportFormats())
        if (name == QLatin1String(f.name))
            return &f;
    return nullptr;
}

} // namespace kvl
