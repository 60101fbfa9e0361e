#pragma once

#include "cache/pressspec.h"

#include <QString>
#include <set>
#include <vector>

namespace kvl {

// Typed access to a spec's parameters. Every read records the value used (given or
// default), so canonical() names the press completely; finish() rejects parameters
// the press does not know. Errors name the spec and the parameter.
class PressParams
{
  public:
    explicit PressParams(const PressSpec& spec);

    double real(const QString& key, double fallback, double min, double max);
    int integer(const QString& key, int fallback, int min, int max);
    bool flag(const QString& key, bool fallback);
    QString text(const QString& key, const QString& fallback);
    // ";"-separated reals; empty when absent.
    std::vector<double> reals(const QString& key, double min, double max);

    // Throws for a parameter that was given but never read.
    void finish() const;
    // name(inner):every=value with the values used, in reading order.
    QString canonical(const QString& innerSpecs = {}) const;

  private:
    const QString* given(const QString& key);
    [[noreturn]] void fail(const QString& key, const QString& problem) const;

    PressSpec m_spec;
    std::set<QString> m_read;
    std::vector<std::pair<QString, QString>> m_used;
};

} // namespace kvl
