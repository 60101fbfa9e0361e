#pragma once

#include "tasks/sample.h"

#include <QString>
#include <vector>

namespace kvl {

// What some importers need beyond the input file.
struct ImportOptions
{
    // kvdiagnosis: the samples (KVLens JSONL) its rows were run on; the rows hold no
    // context of their own.
    QString sourcePath;
};

using ImportFunction = std::vector<Sample> (*)(const QString& path, const ImportOptions& options);

// One dataset format `kvlens-cli tasks import --format NAME` reads (SCHEMA.md,
// "Imported datasets", gives each mapping).
struct DatasetFormat
{
    QString name;
    QString description;
    ImportFunction import = nullptr;
};

// Every format, in the order `tasks import --list` prints them.
const std::vector<DatasetFormat>& datasetFormats();

// Imports `path` as `format` and checks the result against the sample schema (unique
// ids, spans inside their field), so what it returns writes a file `tasks validate`
// accepts. Throws kvl::Error naming the file and the record on bad input, and naming
// the known formats on an unknown one.
std::vector<Sample> importDataset(const QString& format, const QString& path,
                                  const ImportOptions& options = {});

} // namespace kvl
