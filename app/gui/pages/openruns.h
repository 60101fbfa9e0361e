#pragma once

#include "runviewdata.h"

#include <QHash>
#include <QObject>
#include <QStringList>

namespace kvl {

// The runs open in the window, in the order opened, with the configurations and sample
// keys of each one loaded: the Runs dock lists them, the compare pages offer them.
class OpenRuns : public QObject
{
    Q_OBJECT
  public:
    using QObject::QObject;

    const QStringList& paths() const { return m_paths; }
    bool contains(const QString& path) const { return m_paths.contains(path); }
    // The configurations of a run once it was loaded (empty before).
    QVector<ConfigChoice> configs(const QString& path) const { return m_configs.value(path); }
    // The sample keys of a run once it was loaded (empty before).
    QStringList sampleKeys(const QString& path) const { return m_samples.value(path); }
    // How many of the open runs were loaded (their configurations known).
    qsizetype loadedCount() const { return m_configs.size(); }

    void add(const QString& path);
    // What a loaded run holds; adds it when it is not open yet.
    void setLoaded(const QString& path, const QVector<ConfigChoice>& configs,
                   const QStringList& sampleKeys);
    void remove(const QString& path);

  signals:
    void added(const QString& path);
    void removed(const QString& path);
    void changed();

  private:
    QStringList m_paths;
    QHash<QString, QVector<ConfigChoice>> m_configs;
    QHash<QString, QStringList> m_samples;
};

} // namespace kvl
