#pragma once

#include <QByteArray>
#include <QSaveFile>
#include <QString>

namespace kvl {

// A file written in pieces and put in place whole (temporary file + rename) by commit(),
// so a full disk or a crash never leaves a half-written file: run specs, model files.
// Refuses to replace what is not a regular file: the rename would replace a device or a
// link (/dev/full, /dev/stdout) itself. Every failure is a kvl::Error naming the file.
// Destroyed without commit(), it leaves the target as it was.
class AtomicFile
{
  public:
    explicit AtomicFile(const QString& path);
    void write(const char* data, qint64 size);
    void write(const QByteArray& bytes) { write(bytes.constData(), bytes.size()); }
    void commit();

  private:
    QString m_path;
    QSaveFile m_file;
};

} // namespace kvl
