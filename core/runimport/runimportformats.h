#pragma once

#include "runimport/importedrun.h"

#include <QStringList>
#include <vector>

namespace kvl {

// The formats `kvlens-cli import-run --format NAME SRC...` reads. Each reads its sources
// whole, checks them (errors name the file, the line or record and the field) and
// returns the run; nothing is written until every source has been read.
struct RunImportFormat
{
    const char* name;
    const char* summary; // one line: what SRC is
    ImportedRun (*read)(const QStringList& sources);
};

const std::vector<RunImportFormat>& runImportFormats();
// nullptr for an unknown name.
const RunImportFormat* findRunImportFormat(const QString& name);

// SRC: one checkout or copy of the KVDiagnosis release (importkvdiagnosis.cpp).
ImportedRun importKvDiagnosisRelease(const QStringList& sources);
// SRC: result folders of kvpress's evaluation/evaluate.py (importkvpress.cpp).
ImportedRun importKvpressResults(const QStringList& sources);
// SRC: CSV or JSONL files, one row per sample x configuration (importresultrows.cpp).
ImportedRun importResultRows(const QStringList& sources);

} // namespace kvl
