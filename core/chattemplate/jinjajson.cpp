#include "chattemplate/jinjajson.h"

#include "chattemplate/jinjabudget.h"

#include "chattemplate/jinjapython.h"
#include "common/error.h"
#include "common/jsonloads.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl::jinja {
namespace {

// json.loads's tree as the Jinja side holds it: dicts in input order (a repeated key
// keeps its first place and takes the last value, as a Python dict built in order does),
// an integer that fits 64 bits as Int and a larger one as Float.
Value toValue(const JsonLoadsValue& j, const QString& origin)
{
    switch (j.type) {
    case JsonLoadsValue::Type::Null:
        return Value::none();
    case JsonLoadsValue::Type::Bool:
        return Value::boolean(j.boolean);
    case JsonLoadsValue::Type::String:
        return Value::string(j.text);
    case JsonLoadsValue::Type::Int: {
        bool ok = false;
        const qint64 v = j.text.toLongLong(&ok);
        if (ok)
            return Value::integer(v);
        // Beyond 64 bits (a config's model_max_length of 1e30): kept as a float, so it
        // prints differently from Python's exact integer, which no template does.
        const double d = j.text.toDouble(&ok);
        if (!ok)
            throw Error(origin,
                        QStringLiteral("malformed JSON: integer %1 is out of range").arg(j.text));
        return Value::number(d);
    }
    case JsonLoadsValue::Type::Float:
        if (j.text == QLatin1String("NaN"))
            return Value::number(std::numeric_limits<double>::quiet_NaN());
        if (j.text == QLatin1String("Infinity"))
            return Value::number(std::numeric_limits<double>::infinity());
        if (j.text == QLatin1String("-Infinity"))
            return Value::number(-std::numeric_limits<double>::infinity());
        // The text is a well-formed JSON number, so the conversion cannot fail but for
        // range, where Python's float() gives inf or 0 as Qt does.
        return Value::number(j.text.toDouble());
    case JsonLoadsValue::Type::Array: {
        List items;
        items.reserve(j.items.size());
        for (const JsonLoadsValue& item : j.items)
            items.push_back(toValue(item, origin));
        return Value::makeList(std::move(items));
    }
    case JsonLoadsValue::Type::Object: {
        Dict d;
        for (const auto& [key, member] : j.members)
            d.set(key, toValue(member, origin));
        return Value::makeDict(std::move(d));
    }
    }
    return Value::none();
}

QString quoted(const QString& s, bool ensureAscii)
{
    QString out(QLatin1Char('"'));
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        switch (u) {
        case '"':
            out += QLatin1String("\\\"");
            break;
        case '\\':
            out += QLatin1String("\\\\");
            break;
        case '\n':
            out += QLatin1String("\\n");
            break;
        case '\r':
            out += QLatin1String("\\r");
            break;
        case '\t':
            out += QLatin1String("\\t");
            break;
        case 0x08:
            out += QLatin1String("\\b");
            break;
        case 0x0c:
            out += QLatin1String("\\f");
            break;
        default:
            if (u < 0x20 || (ensureAscii && u > 0x7e))
                out += QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out + QLatin1Char('"');
}

void dump(const Value& v, const DumpOptions& o, int depth, QString& out)
{
    const auto newline = [&](int level) {
        if (!o.indent)
            return;
        chargeText(out.size() + 1 + qint64(level) * o.indent->size());
        out += QLatin1Char('\n');
        for (int k = 0; k < level; ++k)
            out += *o.indent;
    };
    const QString itemSep =
        o.itemSeparator.value_or(o.indent ? QStringLiteral(",") : QStringLiteral(", "));
    const QString keySep = o.keySeparator.value_or(QStringLiteral(": "));
    switch (v.type) {
    case Value::Type::None:
        out += QLatin1String("null");
        return;
    case Value::Type::Bool:
        out += v.b ? QLatin1String("true") : QLatin1String("false");
        return;
    case Value::Type::Int:
        out += QString::number(v.i);
        return;
    case Value::Type::Float:
        if (std::isnan(v.f))
            out += QLatin1String("NaN");
        else if (std::isinf(v.f))
            out += v.f > 0 ? QLatin1String("Infinity") : QLatin1String("-Infinity");
        else
            out += py::floatRepr(v.f);
        return;
    case Value::Type::String:
        chargeText(out.size() + v.s.size());
        out += quoted(v.s, o.ensureAscii);
        return;
    case Value::Type::List: {
        if (v.list->empty()) {
            out += QLatin1String("[]");
            return;
        }
        const ValueNesting nesting;
        out += QLatin1Char('[');
        for (size_t k = 0; k < v.list->size(); ++k) {
            if (k)
                out += itemSep;
            newline(depth + 1);
            dump((*v.list)[k], o, depth + 1, out);
        }
        newline(depth);
        out += QLatin1Char(']');
        return;
    }
    case Value::Type::Dict: {
        if (v.dict->items.empty()) {
            out += QLatin1String("{}");
            return;
        }
        auto items = v.dict->items;
        if (o.sortKeys)
            std::stable_sort(items.begin(), items.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        const ValueNesting nesting;
        out += QLatin1Char('{');
        for (size_t k = 0; k < items.size(); ++k) {
            if (k)
                out += itemSep;
            newline(depth + 1);
            out += quoted(items[k].first, o.ensureAscii) + keySep;
            dump(items[k].second, o, depth + 1, out);
        }
        newline(depth);
        out += QLatin1Char('}');
        return;
    }
    default:
        throw Error(QStringLiteral("tojson: Object of type %1 is not JSON "
                                   "serializable")
                        .arg(v.typeName()));
    }
}

} // namespace

Value parseJson(const QByteArray& bytes, const QString& origin)
{
    JsonLoadsError error;
    const std::optional<JsonLoadsValue> tree = jsonLoads(QString::fromUtf8(bytes), &error);
    if (!tree)
        throw Error(origin, QStringLiteral("malformed JSON at line %1, column %2: %3")
                                .arg(error.line)
                                .arg(error.column)
                                .arg(error.message));
    return toValue(*tree, origin);
}

QString dumpJson(const Value& v, const DumpOptions& options)
{
    QString out;
    dump(v, options, 0, out);
    return out;
}

} // namespace kvl::jinja
