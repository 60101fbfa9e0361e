#pragma once

#include "cache/pressspec.h"

#include <QString>
#include <QStringList>
#include <set>
#include <vector>

namespace kvl {

// What a press accepts for one parameter, as its factory reads it through PressParams:
// `kvlens-cli presses --json` prints these, so the range printed is the range enforced.
struct ParamRule
{
    enum class Type
    {
        Integer,
        Real,
        Reals, // ";"-separated reals
        Bool,
        Choice,
        Text,
    };
    QString name;
    Type type = Type::Text;
    double min = 0.0; // Integer, Real, Reals
    double max = 0.0;
    QStringList choices; // Choice
};

// "int", "float", "floats", "bool", "choice", "text".
QString paramTypeName(ParamRule::Type type);

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
    // One of `values` (compared as written).
    QString choice(const QString& key, const QString& fallback, const QStringList& values);
    // ";"-separated reals; empty when absent.
    std::vector<double> reals(const QString& key, double min, double max);

    // Throws for a parameter that was given but never read.
    void finish() const;
    // name(inner):every=value with the values used, in reading order.
    QString canonical(const QString& innerSpecs = {}) const;

  private:
    const QString* given(const QString& key);
    [[noreturn]] void fail(const QString& key, const QString& problem) const;
    void record(ParamRule rule) const;

    PressSpec m_spec;
    std::set<QString> m_read;
    std::vector<std::pair<QString, QString>> m_used;
};

// While alive, collects the rules of every parameter read on this thread by a
// PressParams whose spec is named `pressName` (inner specs have other names). The
// catalogue builds each press once under a probe: factories are free functions that
// see only their spec, and a probe needs no change to any of them.
class PressParamsProbe
{
  public:
    explicit PressParamsProbe(QString pressName);
    ~PressParamsProbe();
    PressParamsProbe(const PressParamsProbe&) = delete;
    PressParamsProbe& operator=(const PressParamsProbe&) = delete;

    // In reading order, each name once.
    const std::vector<ParamRule>& rules() const { return m_rules; }

  private:
    friend class PressParams;
    void record(const QString& specName, ParamRule rule);

    QString m_name;
    std::vector<ParamRule> m_rules;
    PressParamsProbe* m_previous;
};

} // namespace kvl
