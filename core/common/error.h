#pragma once

#include <QString>
#include <stdexcept>

namespace kvl {

// The one exception type the core throws for bad input. Its message is meant for
// the user as is: it names the file (when there is one) and the problem.
class Error : public std::runtime_error
{
  public:
    explicit Error(const QString& message);
    Error(const QString& path, const QString& problem);

    QString message() const { return QString::fromUtf8(what()); }
};

} // namespace kvl
