#include "common/error.h"

namespace kvl {

Error::Error(const QString& message) : std::runtime_error(message.toStdString()) {}

Error::Error(const QString& path, const QString& problem)
    : std::runtime_error((path + QStringLiteral(": ") + problem).toStdString())
{}

} // namespace kvl
