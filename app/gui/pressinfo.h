#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// One compressor parameter as `kvlens-cli presses --json` lists it. The list gives
// a default and a help line but no type: the type is read off the default
// ("true"/"false": a switch, a number: a number, else text).
struct PressParam
{
    enum class Type
    {
        Bool,
        Integer,
        Real,
        Text
    };
    QString name;
    QString defaultValue;
    QString help;
    Type type = Type::Text;

    // Empty when `value` fits the parameter, else why not (for the dialog's inline
    // messages). Numbers are non-negative in every press KVLens knows; values may
    // not hold the spec syntax's separators (, + ( ) :).
    QString check(const QString& value) const;
};

// One press (compressor) of `kvlens-cli presses --json`.
struct PressInfo
{
    QString name;
    QString kind;  // scorer, selector, wrapper, transform
    QString inner; // what goes in parentheses: "", "scorer", "scorer (optional, ...)", "press"
    QString rule;
    QVector<PressParam> params;

    // A scorer must be chosen to go in parentheses (a selector or wrapper over one).
    bool takesScorer() const { return inner.startsWith(QLatin1String("scorer")); }
    bool innerOptional() const { return inner.contains(QLatin1String("optional")); }
    // Wrappers over whole presses (composed, keyrerotation): written as free text.
    bool takesPress() const { return inner.startsWith(QLatin1String("press")); }
    const PressParam* param(const QString& name) const;

    // The spec `run --press` takes: name[(inner)][:k=v,...], listing only values
    // that differ from the defaults, in the catalogue's parameter order.
    QString spec(const QString& innerSpec, const QMap<QString, QString>& values) const;
};

// Parses the output of `kvlens-cli presses --json`; throws kvl::Error naming `origin`
// and the problem for anything else.
QVector<PressInfo> parsePressesJson(const QByteArray& json, const QString& origin);

// A spec split into its parts (name, inner text, parameters); nullopt-like empty
// name when `spec` does not have the shape name[(inner)][:k=v,...].
struct PressSpecParts
{
    QString name;
    QString inner;
    QMap<QString, QString> values;
    QStringList order; // parameter names as written
};
PressSpecParts splitPressSpec(const QString& spec);

} // namespace kvl
