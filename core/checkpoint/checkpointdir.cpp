#include "checkpoint/checkpointdir.h"

#include "checkpoint/hfconfigreader.h"
#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <map>

namespace kvl {

namespace {
const QString kSingleFile = QStringLiteral("model.safetensors");
const QString kIndexFile = QStringLiteral("model.safetensors.index.json");
} // namespace

struct CheckpointDir::Impl
{
    QString dir;
    ModelConfig config;
    // Relative file name -> open file, sorted by name.
    std::map<QString, std::unique_ptr<SafetensorsFile>> files;
    QHash<QString, const SafetensorsFile*> tensorFile;
    QString lookupSource; // what a missing-tensor error names: the index or the single file

    void addFile(const QString& relative)
    {
        auto file = SafetensorsFile::open(QDir(dir).filePath(relative));
        for (const QString& name : file->names()) {
            if (const SafetensorsFile* other = tensorFile.value(name))
                throw Error(
                    file->path(),
                    QStringLiteral("tensor '%1' is also stored in %2").arg(name, other->path()));
            tensorFile.insert(name, file.get());
        }
        files.emplace(relative, std::move(file));
    }
    void openSharded(const QString& indexPath);
};

void CheckpointDir::Impl::openSharded(const QString& indexPath)
{
    const QJsonObject index = readJsonObject(indexPath);
    const QJsonValue mapValue = index.value(QStringLiteral("weight_map"));
    if (!mapValue.isObject())
        throw Error(indexPath, QStringLiteral("no 'weight_map' object"));
    const QJsonObject weightMap = mapValue.toObject();
    std::map<QString, QString> shardOf; // sorted, so errors are reproducible
    std::map<QString, bool> shards;
    for (auto it = weightMap.begin(); it != weightMap.end(); ++it) {
        const QString shard = it.value().toString();
        if (shard.isEmpty() || QDir::isAbsolutePath(shard) || shard.contains(QLatin1String("..")))
            throw Error(indexPath,
                        QStringLiteral("weight_map entry '%1' does not name a shard file in "
                                       "the model directory")
                            .arg(it.key()));
        shardOf.emplace(it.key(), shard);
        shards[shard] = true;
    }
    if (shards.empty())
        throw Error(indexPath, QStringLiteral("weight_map is empty"));
    for (const auto& [shard, unused] : shards) {
        const QString shardPath = QDir(dir).filePath(shard);
        if (!QFileInfo::exists(shardPath))
            throw Error(shardPath, QStringLiteral("missing shard (listed in %1)").arg(indexPath));
    }
    for (const auto& [shard, unused] : shards)
        addFile(shard);
    for (const auto& [tensor, shard] : shardOf) {
        const SafetensorsFile* file = files.at(shard).get();
        if (!file->contains(tensor))
            throw Error(file->path(),
                        QStringLiteral("tensor '%1' is listed in %2 for this shard but "
                                       "is not in it")
                            .arg(tensor, indexPath));
    }
}

CheckpointDir::CheckpointDir() : d(std::make_unique<Impl>()) {}
CheckpointDir::~CheckpointDir() = default;

std::unique_ptr<CheckpointDir> CheckpointDir::open(const QString& dirPath)
{
    const QFileInfo info(dirPath);
    if (!info.exists())
        throw Error(dirPath, QStringLiteral("no such model directory"));
    if (!info.isDir())
        throw Error(dirPath, QStringLiteral("not a directory (a model is a directory with "
                                            "config.json and model.safetensors)"));
    std::unique_ptr<CheckpointDir> result(new CheckpointDir);
    Impl& d = *result->d;
    d.dir = dirPath;
    const QString configPath = result->configPath();
    if (!QFileInfo::exists(configPath))
        throw Error(configPath, QStringLiteral("missing: a model directory needs config.json"));
    d.config = loadModelConfig(configPath);

    const QDir dir(dirPath);
    if (QFileInfo::exists(dir.filePath(kIndexFile))) {
        d.lookupSource = dir.filePath(kIndexFile);
        d.openSharded(d.lookupSource);
    } else if (QFileInfo::exists(dir.filePath(kSingleFile))) {
        d.lookupSource = dir.filePath(kSingleFile);
        d.addFile(kSingleFile);
    } else {
        throw Error(dirPath,
                    QStringLiteral("no weights: neither %1 nor %2").arg(kSingleFile, kIndexFile));
    }
    return result;
}

const QString& CheckpointDir::dir() const
{
    return d->dir;
}

QString CheckpointDir::configPath() const
{
    return QDir(d->dir).filePath(QStringLiteral("config.json"));
}

const ModelConfig& CheckpointDir::config() const
{
    return d->config;
}

QStringList CheckpointDir::files() const
{
    QStringList names;
    for (const auto& [name, file] : d->files)
        names << name;
    return names;
}

QStringList CheckpointDir::tensorNames() const
{
    QStringList names = d->tensorFile.keys();
    names.sort();
    return names;
}

bool CheckpointDir::contains(const QString& name) const
{
    return d->tensorFile.contains(name);
}

const TensorView& CheckpointDir::tensor(const QString& name,
                                        const std::vector<int64_t>& expectedShape) const
{
    const SafetensorsFile* file = d->tensorFile.value(name);
    if (!file)
        throw Error(d->lookupSource,
                    QStringLiteral("missing tensor '%1' (the %2 architecture needs it)")
                        .arg(name, d->config.architectureName));
    const TensorView& view = file->tensor(name);
    if (!expectedShape.empty() && view.shape != expectedShape)
        throw Error(view.file,
                    QStringLiteral("tensor '%1' has shape %2, expected %3 (from config.json)")
                        .arg(name, shapeString(view.shape), shapeString(expectedShape)));
    return view;
}

QString CheckpointDir::tokenizerPath() const
{
    const QString path = QDir(d->dir).filePath(QStringLiteral("tokenizer.json"));
    return QFileInfo::exists(path) ? path : QString();
}

QString CheckpointDir::requireTokenizerPath(const QString& chosen) const
{
    if (!chosen.isEmpty())
        return chosen;
    const QString path = tokenizerPath();
    if (path.isEmpty())
        throw Error(d->dir, QStringLiteral("no tokenizer.json in the model directory"));
    return path;
}

QString CheckpointDir::identityHash() const
{
    // The config plus every file's name, size and header: the header holds every
    // tensor's name, dtype, shape and offsets, so a retrained or re-quantized model
    // changes it in practice, while hashing stays cheap for multi-GB weights.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayLiteral("config.json\n"));
    hash.addData(readFileBytes(configPath()));
    for (const auto& [name, file] : d->files) {
        hash.addData(QByteArrayLiteral("\nfile\n"));
        hash.addData(name.toUtf8());
        hash.addData(QByteArray("\n") + QByteArray::number(file->fileSize()) + '\n');
        hash.addData(file->headerBytes());
    }
    return QString::fromLatin1(hash.result().toHex());
}

int64_t CheckpointDir::parameterCount() const
{
    const bool skipLmHead = d->config.tieWordEmbeddings &&
                            contains(QStringLiteral("model.embed_tokens.weight")) &&
                            contains(QStringLiteral("lm_head.weight"));
    int64_t total = 0;
    for (auto it = d->tensorFile.constBegin(); it != d->tensorFile.constEnd(); ++it) {
        if (skipLmHead && it.key() == QLatin1String("lm_head.weight"))
            continue;
        total += it.value()->tensor(it.key()).numel();
    }
    return total;
}

} // namespace kvl
