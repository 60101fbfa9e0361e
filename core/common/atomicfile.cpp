#include "common/atomicfile.h"

#include "common/error.h"

#include <QFileInfo>

namespace kvl {

AtomicFile::AtomicFile(const QString& path) : m_path(path), m_file(path)
{
    const QFileInfo info(path);
    if (info.exists() && (!info.isFile() || info.isSymLink()))
        throw Error(path,
                    QStringLiteral("refusing to replace something that is not a regular file"));
    if (!m_file.open(QIODevice::WriteOnly))
        throw Error(path,
                    QStringLiteral("cannot open for writing (%1)").arg(m_file.errorString()));
}

void AtomicFile::write(const char* data, qint64 size)
{
    if (m_file.write(data, size) != size)
        throw Error(m_path, QStringLiteral("write failed (%1)").arg(m_file.errorString()));
}

void AtomicFile::commit()
{
    if (!m_file.commit())
        throw Error(m_path,
                    QStringLiteral("cannot complete the write (%1)").arg(m_file.errorString()));
}

} // namespace kvl
