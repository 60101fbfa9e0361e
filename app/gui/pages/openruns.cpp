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

void OpenRuns::setConfigs(const QString& path, const QVector<ConfigChoice>& configs)
{
    if (path.isEmpty())
        return;
    add(path);
    m_configs.insert(path, configs);
    emit changed();
}

void OpenRuns::remove(const QString& path)
{
    if (!m_paths.removeAll(path))
        return;
    m_configs.remove(path);
    emit removed(path);
    emit changed();
}

} // namespace kvl
