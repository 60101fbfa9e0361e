#pragma once

// One function per dataset format (one file each: import<format>.cpp); the registry in
// datasetimporters.cpp lists them. Each throws kvl::Error naming the file, the record
// and the field on bad input.
#include "tasks/datasetimporters.h"

namespace kvl {

std::vector<Sample> importLongBench(const QString& path, const ImportOptions& options);
std::vector<Sample> importLongBenchV2(const QString& path, const ImportOptions& options);
std::vector<Sample> importRuler(const QString& path, const ImportOptions& options);
std::vector<Sample> importHotpotQa(const QString& path, const ImportOptions& options);
std::vector<Sample> importQasper(const QString& path, const ImportOptions& options);
std::vector<Sample> importKvDiagnosis(const QString& path, const ImportOptions& options);
std::vector<Sample> importIfEval(const QString& path, const ImportOptions& options);

} // namespace kvl
