#pragma once

#include "chattemplate/jinjaerror.h"
#include "chattemplate/jinjavalue.h"

#include <QDateTime>
#include <functional>

// The filters, tests, methods and globals that transformers' Jinja environment offers
// to chat templates, with Python's semantics. Anything else throws kvl::Error naming it.
namespace kvl::jinja {

// Positional and keyword arguments of a call, looked up as Python binds them.
struct CallArgs
{
    const List& positional;
    const KwArgs& keywords;
    QString callee; // for errors

    const Value* find(int index, const char* name) const;
    Value get(int index, const char* name, const Value& fallback) const;
    // Errors on arguments the callee does not take.
    void allow(int maxPositional, std::initializer_list<const char*> names) const;
};


// obj.name: a dict key, a string/dict/list method bound to obj, or Undefined.
Value attribute(const Value& obj, const QString& name, int line);
// obj[key]: list/string index (Undefined when out of range, as Jinja), dict key.
Value item(const Value& obj, const Value& key, int line);
Value slice(const Value& obj, const Value& start, const Value& stop, const Value& step, int line);

// Iterating a value in a for loop or filter: list items, dict keys, string characters;
// Undefined is empty.
List iterate(const Value& v, int line);

// `applyTest` is given to filters that take a test name (select, reject, selectattr).
using TestFn = std::function<bool(const QString& name, const Value& subject, const List& args)>;
Value applyFilter(const QString& name, const Value& subject, const CallArgs& args, int line,
                  const TestFn& test);
bool applyTest(const QString& name, const Value& subject, const List& args, int line);

// raise_exception, strftime_now (with `now` as the time), namespace, range, dict.
Dict globalFunctions(const std::function<QDateTime()>& now);

} // namespace kvl::jinja
