#pragma once

#include <QString>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace kvl::jinja {

struct Value;
using List = std::vector<Value>;
using KwArgs = std::vector<std::pair<QString, Value>>;

// An insertion-ordered string-keyed map, as a Python dict parsed from JSON is: the
// order matters for tojson and for iterating a dict, so QJsonObject (sorted) won't do.
struct Dict
{
    std::vector<std::pair<QString, Value>> items;
    const Value* find(const QString& key) const;
    void set(const QString& key, Value value);
};

// A builtin function, bound method, filter target or macro: called with positional
// and keyword arguments, it returns a value or throws kvl::Error.
struct Callable
{
    QString name;
    std::function<Value(const List& args, const KwArgs& kwargs)> call;
};

// A template value with Python's semantics: Jinja hands template values to Python,
// so equality, truth, str() and repr() follow Python so that output is byte-identical.
struct Value
{
    enum class Type
    {
        Undefined,
        None,
        Bool,
        Int,
        Float,
        String,
        List,
        Dict,
        Namespace,
        Callable
    };

    Value() = default;
    Value(const Value&) = default;
    Value(Value&&) noexcept = default;
    Value& operator=(const Value&) = default;
    Value& operator=(Value&&) noexcept = default;
    // Releases nested lists, dicts and bound callables one at a time instead of
    // recursively: a template can build a list nested a million deep in a loop, and
    // destroying it level by level would overflow the stack.
    ~Value();

    Type type = Type::Undefined;
    bool b = false;
    qint64 i = 0;
    double f = 0;
    QString s; // the string; for Undefined, the name that was looked up (for errors)
    std::shared_ptr<jinja::List> list;
    bool tuple = false; // a List that Python would hold as a tuple (repr uses parentheses)
    std::shared_ptr<jinja::Dict> dict; // Dict and Namespace
    std::shared_ptr<jinja::Callable> fn;

    static Value undefined(const QString& hint = {});
    static Value none();
    static Value boolean(bool v);
    static Value integer(qint64 v);
    static Value number(double v);
    static Value string(const QString& v);
    static Value makeList(jinja::List items, bool isTuple = false);
    static Value makeDict(jinja::Dict d = {});
    static Value makeNamespace(jinja::Dict d = {});
    static Value function(const QString& name,
                          std::function<Value(const jinja::List&, const KwArgs&)> call);

    bool isUndefined() const { return type == Type::Undefined; }
    bool isNone() const { return type == Type::None; }
    bool isString() const { return type == Type::String; }
    bool isList() const { return type == Type::List; }
    bool isDict() const { return type == Type::Dict; }
    bool isNumber() const { return type == Type::Int || type == Type::Float || type == Type::Bool; }
    double toDouble() const { return type == Type::Float ? f : double(type == Type::Bool ? b : i); }

    bool truthy() const;
    // Python's type name, for error messages ("'int' and 'str'").
    QString typeName() const;
};

// Python's ==: 1 == 1.0 == True, lists and dicts element-wise, no cross-type equality.
// Charged to the rendering's budget per item compared (chattemplate/jinjabudget.h).
bool equals(const Value& a, const Value& b);

} // namespace kvl::jinja
