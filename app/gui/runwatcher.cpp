#include "runwatcher.h"

#include "common/error.h"
#include "store/runreader.h"

#include <QFileInfo>

namespace kvl {

RunWatcher::RunWatcher(QObject* parent) : QObject(parent)
{
    // Every second or so: a sample of a real sweep takes seconds, and the
    // pragma is a read of one header page.
    m_timer.setInterval(1500);
    connect(&m_timer, &QTimer::timeout, this, &RunWatcher::poll);
}

RunWatcher::~RunWatcher() = default;

void RunWatcher::watch(const QString& path)
{
    if (path == m_path && m_timer.isActive())
        return;
    stop();
    m_path = path;
    if (QFileInfo::exists(path)) {
        try {
            m_reader = std::make_unique<RunReader>(path);
            m_version = m_reader->dataVersion();
        } catch (const Error&) {
            m_reader.reset(); // a file still being created; retried on the next poll
        }
    }
    m_timer.start();
}

void RunWatcher::stop()
{
    m_timer.stop();
    m_reader.reset();
    m_path.clear();
    m_version = -1;
}

bool RunWatcher::poll()
{
    if (m_path.isEmpty())
        return false;
    try {
        if (!m_reader) {
            if (!QFileInfo::exists(m_path))
                return false;
            m_reader = std::make_unique<RunReader>(m_path);
            m_version = m_reader->dataVersion();
            emit changed(m_path);
            return true;
        }
        const qint64 version = m_reader->dataVersion();
        if (version == m_version)
            return false;
        m_version = version;
    } catch (const Error&) {
        m_reader.reset(); // replaced or damaged meanwhile: reopen next time
        return false;
    }
    emit changed(m_path);
    return true;
}

} // namespace kvl
