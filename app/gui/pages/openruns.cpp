#include "openruns.h"

namespace kvl {

void OpenRuns::add(const QString& path)
{
    if (path.isEmpty() || m_paths.contains(path))
        return;
    m_paths << path;
    emit added(path);
    emit changed();
}

void OpenRuns::setLoaded(const QString& path, const QVector<ConfigChoice>& configs,
                         const QStringList& sampleKeys)
{
    if (path.isEmpty())
        return;
    add(path);
    m_configs.insert(path, configs);
    m_samples.insert(path, sampleKeys);
    emit changed();
}

void OpenRuns::remove(const QString& path)
{
    if (!m_paths.removeAll(path))
        return;
    m_configs.remove(path);
    m_samples.remove(path);
    emit removed(path);
    emit changed();
}

} // namespace kvl
