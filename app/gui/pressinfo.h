#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// One compressor parameter as `kvlens-cli presses --json` lists it: its type and the
// range or choices the press's factory enforces. An older CLI that prints no type:
// the type is read off the default ("true"/"false": a switch, a number: a number,
// else text) and numbers are only checked to be non-negative.
struct PressParam
{
    enum class Type
    {
        Bool,
        Integer,
        Real,
        Reals, // ";"-separated reals
        Choice,
        Text
    };
    QString name;
    QString defaultValue;
    QString help;
    Type type = Type::Text;
    bool bounded = false; // min and max are the press's (Integer, Real, Reals)
    double min = 0.0;
    double max = 0.0;
    QStringList choices; // Choice

    // Empty when `value` fits the parameter, else why not (for the dialog's inline
    // messages and its refusal to launch); values may not hold the spec syntax's
    // separators (, + ( ) :).
    QString check(const QString& value) const;
};

// One press (compressor) of `kvlens-cli presses --json`.
struct PressInfo
{
    QString name;
    QString kind;  // scorer, selector, wrapper, transform
    QString inner; // what goes in parentheses: "", "scorer", "scorer (optional, ...)", "press"
    QStringList innerChoices; // the scorers that fit in parentheses (empty: any scorer)
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
