#include "chattemplate/jinjabuiltins.h"

#include "chattemplate/jinjabudget.h"

#include "chattemplate/jinjajson.h"
#include "chattemplate/jinjapython.h"
#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl::jinja {

const Value* CallArgs::find(int index, const char* name) const
{
    for (const auto& [k, v] : keywords)
        if (k == QLatin1String(name))
            return &v;
    if (index >= 0 && size_t(index) < positional.size())
        return &positional[size_t(index)];
    return nullptr;
}

Value CallArgs::get(int index, const char* name, const Value& fallback) const
{
    const Value* v = find(index, name);
    return v ? *v : fallback;
}

void CallArgs::allow(int maxPositional, std::initializer_list<const char*> names) const
{
    if (int(positional.size()) > maxPositional)
        throw Error(QStringLiteral("%1 takes at most %2 positional arguments (%3 "
                                   "given)")
                        .arg(callee)
                        .arg(maxPositional)
                        .arg(positional.size()));
    for (const auto& [k, v] : keywords) {
        bool known = false;
        for (const char* n : names)
            known = known || k == QLatin1String(n);
        if (!known)
            throw Error(QStringLiteral("%1 got an unexpected keyword argument "
                                       "'%2'")
                            .arg(callee, k));
    }
}

namespace {

[[noreturn]] void typeError(const QString& what)
{
    throw Error(what);
}

QString needString(const Value& v, const QString& where)
{
    if (!v.isString())
        typeError(QStringLiteral("%1 expects a string, not %2").arg(where, v.typeName()));
    return v.s;
}

qint64 needInt(const Value& v, const QString& where)
{
    if (v.type == Value::Type::Int)
        return v.i;
    if (v.type == Value::Type::Bool)
        return v.b;
    typeError(QStringLiteral("%1 expects an integer, not %2").arg(where, v.typeName()));
}

std::optional<QString> optionalString(const Value* v, const QString& where)
{
    if (!v || v->isNone())
        return std::nullopt;
    return needString(*v, where);
}

// str.startswith / endswith with a string or a tuple of strings.
bool affix(const QString& s, const Value& arg, bool prefix, const QString& where)
{
    if (arg.isList()) {
        for (const Value& a : *arg.list)
            if (affix(s, a, prefix, where))
                return true;
        return false;
    }
    const QString a = needString(arg, where);
    return prefix ? s.startsWith(a) : s.endsWith(a);
}

QString capitalize(const QString& s)
{
    if (s.isEmpty())
        return s;
    const std::u32string cps = py::codePoints(s);
    return QString::fromUcs4(&cps[0], 1).toUpper() + py::fromCodePoints(cps.substr(1)).toLower();
}

QString title(const QString& s)
{
    QString out;
    bool prevCased = false;
    for (const char32_t c : s.toUcs4()) {
        const QString ch = QString::fromUcs4(&c, 1);
        out += prevCased ? ch.toLower() : ch.toUpper();
        prevCased = QChar::isLower(c) || QChar::isUpper(c) || QChar::isTitleCase(c);
    }
    return out;
}

// Jinja's title filter (not str.title): each run of characters between runs of '-',
// whitespace, '(', '{', '[' or '<' gets its first character upper-cased, the rest lowered.
QString titleFilter(const QString& s)
{
    QString out;
    bool wordStart = true;
    for (const char32_t c : s.toUcs4()) {
        const QString ch = QString::fromUcs4(&c, 1);
        const bool separator =
            c == '-' || c == '(' || c == '{' || c == '[' || c == '<' || py::isSpace(c);
        if (separator) {
            out += ch;
            wordStart = true;
            continue;
        }
        out += wordStart ? ch.toUpper() : ch.toLower();
        wordStart = false;
    }
    return out;
}

QString replace(const QString& s, const QString& old, const QString& repl, qint64 count)
{
    // The result's length before it is built: s.replace('', x) multiplies the text.
    qint64 hits = old.isEmpty() ? s.size() + 1 : s.count(old);
    if (count >= 0)
        hits = std::min(hits, count);
    chargeText(s.size() + hits * (repl.size() - old.size()));
    if (count < 0)
        return QString(s).replace(old, repl);
    QString out;
    qsizetype from = 0;
    for (qint64 n = 0; n < count; ++n) {
        const qsizetype at = old.isEmpty() ? (from <= s.size() ? from : -1) : s.indexOf(old, from);
        if (at < 0)
            break;
        out += s.mid(from, at - from) + repl;
        if (old.isEmpty()) {
            if (at < s.size())
                out += s[at];
            from = at + 1;
        } else {
            from = at + old.size();
        }
    }
    return out + s.mid(from);
}

// str.join, with the result's length checked before it is built.
QString joined(const QStringList& parts, const QString& sep)
{
    qint64 length = parts.isEmpty() ? 0 : qint64(sep.size()) * (parts.size() - 1);
    for (const QString& p : parts)
        length += p.size();
    chargeText(length);
    return parts.join(sep);
}

List splitLines(const QString& s)
{
    List out;
    QString line;
    for (qsizetype k = 0; k < s.size(); ++k) {
        const char16_t c = s[k].unicode();
        if (c == '\r' && k + 1 < s.size() && s[k + 1] == QLatin1Char('\n'))
            ++k;
        if (c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1e) ||
            c == 0x85 || c == 0x2028 || c == 0x2029) {
            chargeAppend(qint64(out.size()) + 1);
            out.push_back(Value::string(line));
            line.clear();
        } else {
            line += s[k];
        }
    }
    if (!line.isEmpty())
        out.push_back(Value::string(line));
    return out;
}

Value method(const Value& self, const QString& name, int line)
{
    const QString where = self.typeName() + QLatin1Char('.') + name + QStringLiteral("()");
    auto bind = [&](auto fn) {
        return Value::function(where, [self, where, fn](const List& a, const KwArgs& k) {
            return fn(self, CallArgs{a, k, where});
        });
    };
    if (self.isString()) {
        if (name == QLatin1String("strip") || name == QLatin1String("lstrip") ||
            name == QLatin1String("rstrip")) {
            const bool left = name != QLatin1String("rstrip");
            const bool right = name != QLatin1String("lstrip");
            return bind([left, right](const Value& s, const CallArgs& a) {
                a.allow(1, {});
                return Value::string(
                    py::strip(s.s, optionalString(a.find(0, ""), a.callee), left, right));
            });
        }
        if (name == QLatin1String("split"))
            return bind([](const Value& s, const CallArgs& a) {
                a.allow(2, {"sep", "maxsplit"});
                return Value::makeList(
                    py::split(s.s, optionalString(a.find(0, "sep"), a.callee),
                              needInt(a.get(1, "maxsplit", Value::integer(-1)), a.callee)));
            });
        if (name == QLatin1String("startswith") || name == QLatin1String("endswith")) {
            const bool prefix = name == QLatin1String("startswith");
            return bind([prefix](const Value& s, const CallArgs& a) {
                a.allow(1, {});
                if (a.positional.empty())
                    typeError(QStringLiteral("%1 takes exactly one argument").arg(a.callee));
                return Value::boolean(affix(s.s, a.positional[0], prefix, a.callee));
            });
        }
        if (name == QLatin1String("upper") || name == QLatin1String("lower") ||
            name == QLatin1String("title") || name == QLatin1String("capitalize")) {
            return bind([name](const Value& s, const CallArgs& a) {
                a.allow(0, {});
                if (name == QLatin1String("upper"))
                    return Value::string(s.s.toUpper());
                if (name == QLatin1String("lower"))
                    return Value::string(s.s.toLower());
                return Value::string(name == QLatin1String("title") ? title(s.s) : capitalize(s.s));
            });
        }
        if (name == QLatin1String("replace"))
            return bind([](const Value& s, const CallArgs& a) {
                a.allow(3, {"count"});
                if (a.positional.size() < 2)
                    typeError(QStringLiteral("%1 takes at least two arguments").arg(a.callee));
                return Value::string(
                    replace(s.s, needString(a.positional[0], a.callee),
                            needString(a.positional[1], a.callee),
                            needInt(a.get(2, "count", Value::integer(-1)), a.callee)));
            });
        if (name == QLatin1String("find") || name == QLatin1String("count"))
            return bind([name](const Value& s, const CallArgs& a) {
                a.allow(1, {});
                if (a.positional.empty())
                    typeError(QStringLiteral("%1 takes one argument").arg(a.callee));
                const QString sub = needString(a.positional[0], a.callee);
                if (name == QLatin1String("count")) {
                    if (sub.isEmpty())
                        return Value::integer(py::length(s.s) + 1);
                    return Value::integer(s.s.count(sub));
                }
                const qsizetype at = s.s.indexOf(sub);
                return Value::integer(at < 0 ? -1 : py::length(s.s.left(at)));
            });
        if (name == QLatin1String("join"))
            return bind([](const Value& s, const CallArgs& a) {
                a.allow(1, {});
                if (a.positional.empty())
                    typeError(QStringLiteral("%1 takes one argument").arg(a.callee));
                QStringList parts;
                for (const Value& v : iterate(a.positional[0], 0))
                    parts << needString(v, a.callee);
                return Value::string(joined(parts, s.s));
            });
        if (name == QLatin1String("splitlines"))
            return bind([](const Value& s, const CallArgs& a) {
                a.allow(0, {});
                return Value::makeList(splitLines(s.s));
            });
        if (name == QLatin1String("isspace") || name == QLatin1String("isdigit"))
            return bind([name](const Value& s, const CallArgs& a) {
                a.allow(0, {});
                bool all = !s.s.isEmpty();
                for (const char32_t c : s.s.toUcs4())
                    all = all &&
                          (name == QLatin1String("isspace") ? py::isSpace(c) : QChar::isDigit(c));
                return Value::boolean(all);
            });
        // A str method this subset lacks is an error naming it; any other name is an
        // attribute a str does not have, which Jinja makes undefined.
        static const QStringList pythonStrMethods = {
            QStringLiteral("casefold"),     QStringLiteral("center"),
            QStringLiteral("encode"),       QStringLiteral("expandtabs"),
            QStringLiteral("format"),       QStringLiteral("format_map"),
            QStringLiteral("index"),        QStringLiteral("isalnum"),
            QStringLiteral("isalpha"),      QStringLiteral("isascii"),
            QStringLiteral("isdecimal"),    QStringLiteral("isidentifier"),
            QStringLiteral("islower"),      QStringLiteral("isnumeric"),
            QStringLiteral("isprintable"),  QStringLiteral("istitle"),
            QStringLiteral("isupper"),      QStringLiteral("ljust"),
            QStringLiteral("maketrans"),    QStringLiteral("partition"),
            QStringLiteral("removeprefix"), QStringLiteral("removesuffix"),
            QStringLiteral("rfind"),        QStringLiteral("rindex"),
            QStringLiteral("rjust"),        QStringLiteral("rpartition"),
            QStringLiteral("rsplit"),       QStringLiteral("swapcase"),
            QStringLiteral("translate"),    QStringLiteral("zfill")};
        if (pythonStrMethods.contains(name))
            fail(line, QStringLiteral("the string method '%1' is not supported").arg(name));
        return Value::undefined(QStringLiteral("'str object' has no attribute '%1'").arg(name));
    }
    if (self.isList() && (name == QLatin1String("count") || name == QLatin1String("index")))
        return bind([name](const Value& l, const CallArgs& a) {
            a.allow(1, {});
            if (a.positional.empty())
                typeError(QStringLiteral("%1 takes exactly one argument").arg(a.callee));
            qint64 count = 0;
            for (size_t k = 0; k < l.list->size(); ++k)
                if (equals((*l.list)[k], a.positional[0])) {
                    if (name == QLatin1String("index"))
                        return Value::integer(qint64(k));
                    ++count;
                }
            if (name == QLatin1String("index"))
                typeError(QStringLiteral("%1: %2 is not in list")
                              .arg(a.callee, py::repr(a.positional[0])));
            return Value::integer(count);
        });
    if (self.isDict()) {
        if (name == QLatin1String("get"))
            return bind([](const Value& d, const CallArgs& a) {
                a.allow(2, {});
                if (a.positional.empty())
                    typeError(QStringLiteral("%1 takes at least one argument").arg(a.callee));
                const Value& key = a.positional[0];
                const Value* v = key.isString() ? d.dict->find(key.s) : nullptr;
                return v ? *v : a.get(1, "", Value::none());
            });
        if (name == QLatin1String("items") || name == QLatin1String("keys") ||
            name == QLatin1String("values"))
            return bind([name](const Value& d, const CallArgs& a) {
                a.allow(0, {});
                List out;
                for (const auto& [k, v] : d.dict->items) {
                    if (name == QLatin1String("items"))
                        out.push_back(Value::makeList({Value::string(k), v}, true));
                    else
                        out.push_back(name == QLatin1String("keys") ? Value::string(k) : v);
                }
                return Value::makeList(std::move(out));
            });
    }
    return Value::undefined(
        QStringLiteral("'%1 object' has no attribute '%2'").arg(self.typeName(), name));
}

bool isDictMethod(const QString& name)
{
    static const QStringList names = {
        QStringLiteral("get"),     QStringLiteral("items"),      QStringLiteral("keys"),
        QStringLiteral("values"),  QStringLiteral("pop"),        QStringLiteral("update"),
        QStringLiteral("copy"),    QStringLiteral("setdefault"), QStringLiteral("clear"),
        QStringLiteral("popitem"), QStringLiteral("fromkeys")};
    return names.contains(name);
}

qint64 normalizeIndex(qint64 index, qint64 size)
{
    return index < 0 ? index + size : index;
}

QString strftime(const QDateTime& t, const QString& format)
{
    static const char* const months[] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
    static const char* const days[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                       "Friday", "Saturday", "Sunday"};
    const QDate d = t.date();
    const QTime tm = t.time();
    auto two = [](int v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
    QString out;
    for (qsizetype k = 0; k < format.size(); ++k) {
        if (format[k] != QLatin1Char('%') || k + 1 == format.size()) {
            out += format[k];
            continue;
        }
        const char c = format[++k].toLatin1();
        switch (c) {
        case 'Y':
            out += QString::number(d.year());
            break;
        case 'y':
            out += two(d.year() % 100);
            break;
        case 'm':
            out += two(d.month());
            break;
        case 'd':
            out += two(d.day());
            break;
        case 'j':
            out += QStringLiteral("%1").arg(d.dayOfYear(), 3, 10, QLatin1Char('0'));
            break;
        case 'H':
            out += two(tm.hour());
            break;
        case 'I':
            out += two(tm.hour() % 12 == 0 ? 12 : tm.hour() % 12);
            break;
        case 'M':
            out += two(tm.minute());
            break;
        case 'S':
            out += two(tm.second());
            break;
        case 'p':
            out += tm.hour() < 12 ? QStringLiteral("AM") : QStringLiteral("PM");
            break;
        case 'B':
            out += QLatin1String(months[d.month() - 1]);
            break;
        case 'b':
            out += QLatin1String(months[d.month() - 1]).left(3);
            break;
        case 'A':
            out += QLatin1String(days[d.dayOfWeek() - 1]);
            break;
        case 'a':
            out += QLatin1String(days[d.dayOfWeek() - 1]).left(3);
            break;
        case '%':
            out += QLatin1Char('%');
            break;
        default:
            typeError(QStringLiteral("strftime_now: the format code '%%%1' is not supported")
                          .arg(QLatin1Char(c)));
        }
    }
    return out;
}

} // namespace

Value attribute(const Value& obj, const QString& name, int line)
{
    switch (obj.type) {
    case Value::Type::Undefined:
        fail(line, QStringLiteral("%1 (reading '.%2')")
                       .arg(obj.s.isEmpty() ? QStringLiteral("an undefined value") : obj.s, name));
    case Value::Type::Dict:
        if (isDictMethod(name))
            return method(obj, name, line);
        [[fallthrough]];
    case Value::Type::Namespace:
        if (const Value* v = obj.dict->find(name))
            return *v;
        return Value::undefined(
            QStringLiteral("'%1 object' has no attribute '%2'").arg(obj.typeName(), name));
    case Value::Type::String:
        return method(obj, name, line);
    case Value::Type::List:
        if (name == QLatin1String("count") || name == QLatin1String("index"))
            return method(obj, name, line);
        [[fallthrough]];
    default:
        return Value::undefined(
            QStringLiteral("'%1 object' has no attribute '%2'").arg(obj.typeName(), name));
    }
}

Value item(const Value& obj, const Value& key, int line)
{
    if (obj.isUndefined())
        fail(line, QStringLiteral("%1 (subscripted)")
                       .arg(obj.s.isEmpty() ? QStringLiteral("an undefined value") : obj.s));
    const Value missing = Value::undefined(
        QStringLiteral("'%1 object' has no item %2").arg(obj.typeName(), py::repr(key)));
    if (obj.isDict() || obj.type == Value::Type::Namespace) {
        if (!key.isString())
            return missing;
        if (const Value* v = obj.dict->find(key.s))
            return *v;
        return obj.isDict() && isDictMethod(key.s) ? method(obj, key.s, line) : missing;
    }
    if (obj.isList() || obj.isString()) {
        if (key.isString())
            return obj.isString() ? attribute(obj, key.s, line) : missing;
        if (key.type != Value::Type::Int && key.type != Value::Type::Bool)
            return missing;
        const qint64 raw = key.type == Value::Type::Bool ? key.b : key.i;
        if (obj.isList()) {
            const qint64 k = normalizeIndex(raw, qint64(obj.list->size()));
            return k >= 0 && k < qint64(obj.list->size()) ? (*obj.list)[size_t(k)] : missing;
        }
        const std::u32string cps = py::codePoints(obj.s);
        const qint64 k = normalizeIndex(raw, qint64(cps.size()));
        return k >= 0 && k < qint64(cps.size())
                   ? Value::string(py::fromCodePoints(cps.substr(k, 1)))
                   : missing;
    }
    return missing;
}

Value slice(const Value& obj, const Value& startV, const Value& stopV, const Value& stepV, int line)
{
    if (obj.isUndefined())
        fail(line, QStringLiteral("slice of an undefined value %1").arg(obj.s));
    if (!obj.isList() && !obj.isString())
        fail(line, QStringLiteral("'%1' object is not subscriptable").arg(obj.typeName()));
    auto opt = [&](const Value& v) -> std::optional<qint64> {
        if (v.isUndefined() || v.isNone())
            return std::nullopt;
        return needInt(v, QStringLiteral("a slice index"));
    };
    const qint64 step = opt(stepV).value_or(1);
    if (step == 0)
        fail(line, QStringLiteral("slice step cannot be zero"));
    const std::u32string cps = obj.isString() ? py::codePoints(obj.s) : std::u32string();
    const qint64 n = obj.isString() ? qint64(cps.size()) : qint64(obj.list->size());
    // CPython's PySlice_AdjustIndices.
    auto adjust = [&](std::optional<qint64> v, qint64 dflt) {
        if (!v)
            return dflt;
        qint64 x = *v;
        if (x < 0) {
            x += n;
            if (x < 0)
                x = step < 0 ? -1 : 0;
        } else if (x >= n) {
            x = step < 0 ? n - 1 : n;
        }
        return x;
    };
    const qint64 start = adjust(opt(startV), step < 0 ? n - 1 : 0);
    const qint64 stop = adjust(opt(stopV), step < 0 ? -1 : n);
    List items;
    std::u32string chars;
    for (qint64 k = start; step > 0 ? k < stop : k > stop; k += step) {
        if (obj.isString())
            chars.push_back(cps[size_t(k)]);
        else
            items.push_back((*obj.list)[size_t(k)]);
    }
    return obj.isString() ? Value::string(py::fromCodePoints(chars))
                          : Value::makeList(std::move(items), obj.tuple);
}

List iterate(const Value& v, int line)
{
    switch (v.type) {
    case Value::Type::Undefined:
        return {};
    case Value::Type::List:
        chargeItems(qint64(v.list->size()));
        return *v.list;
    case Value::Type::Dict: {
        chargeItems(qint64(v.dict->items.size()));
        List keys;
        for (const auto& [k, x] : v.dict->items)
            keys.push_back(Value::string(k));
        return keys;
    }
    case Value::Type::String: {
        chargeItems(v.s.size());
        List chars;
        for (const char32_t c : v.s.toUcs4())
            chars.push_back(Value::string(QString::fromUcs4(&c, 1)));
        return chars;
    }
    default:
        fail(line, QStringLiteral("'%1' object is not iterable").arg(v.typeName()));
    }
}

Value applyFilter(const QString& name, const Value& v, const CallArgs& a, int line,
                  const TestFn& test)
{
    const auto is = [&](const char* n) { return name == QLatin1String(n); };
    if (is("trim")) {
        a.allow(1, {"chars"});
        return Value::string(
            py::strip(py::str(v), optionalString(a.find(0, "chars"), name), true, true));
    }
    if (is("length") || is("count")) {
        a.allow(0, {});
        switch (v.type) {
        case Value::Type::String:
            return Value::integer(py::length(v.s));
        case Value::Type::List:
            return Value::integer(qint64(v.list->size()));
        case Value::Type::Dict:
            return Value::integer(qint64(v.dict->items.size()));
        case Value::Type::Undefined:
            return Value::integer(0);
        default:
            fail(line, QStringLiteral("object of type '%1' has no len()").arg(v.typeName()));
        }
    }
    if (is("tojson")) {
        a.allow(5, {"ensure_ascii", "indent", "separators", "sort_keys"});
        DumpOptions o;
        o.ensureAscii = a.get(0, "ensure_ascii", Value::boolean(false)).truthy();
        const Value indent = a.get(1, "indent", Value::none());
        if (indent.type == Value::Type::Int) {
            chargeText(indent.i);
            o.indent = QString(qsizetype(std::max<qint64>(0, indent.i)), QLatin1Char(' '));
        } else if (indent.isString()) {
            o.indent = indent.s;
        } else if (!indent.isNone())
            fail(line, QStringLiteral("tojson: indent must be an integer or a string"));
        const Value seps = a.get(2, "separators", Value::none());
        if (seps.isList() && seps.list->size() == 2) {
            o.itemSeparator = needString((*seps.list)[0], QStringLiteral("tojson separators"));
            o.keySeparator = needString((*seps.list)[1], QStringLiteral("tojson separators"));
        } else if (!seps.isNone()) {
            fail(line, QStringLiteral("tojson: separators must be a pair of strings"));
        }
        o.sortKeys = a.get(3, "sort_keys", Value::boolean(false)).truthy();
        return Value::string(dumpJson(v, o));
    }
    if (is("string") || is("safe")) {
        a.allow(0, {});
        return Value::string(py::str(v));
    }
    if (is("upper") || is("lower") || is("capitalize") || is("title")) {
        a.allow(0, {});
        const QString s = py::str(v);
        if (is("upper"))
            return Value::string(s.toUpper());
        if (is("lower"))
            return Value::string(s.toLower());
        return Value::string(is("title") ? titleFilter(s) : capitalize(s));
    }
    if (is("default") || is("d")) {
        a.allow(2, {"default_value", "boolean"});
        const bool boolean = a.get(1, "boolean", Value::boolean(false)).truthy();
        if (v.isUndefined() || (boolean && !v.truthy()))
            return a.get(0, "default_value", Value::string(QString()));
        return v;
    }
    if (is("items")) {
        a.allow(0, {});
        if (v.isUndefined())
            return Value::makeList({});
        if (!v.isDict())
            fail(line, QStringLiteral("items: can only get item pairs from a mapping, not %1")
                           .arg(v.typeName()));
        List out;
        for (const auto& [k, x] : v.dict->items)
            out.push_back(Value::makeList({Value::string(k), x}, true));
        return Value::makeList(std::move(out));
    }
    if (is("join")) {
        a.allow(2, {"d", "attribute"});
        const QString sep = py::str(a.get(0, "d", Value::string(QString())));
        const Value* attr = a.find(1, "attribute");
        QStringList parts;
        for (const Value& x : iterate(v, line))
            parts << py::str(
                attr ? (attr->isString() ? attribute(x, attr->s, line) : item(x, *attr, line)) : x);
        return Value::string(joined(parts, sep));
    }
    if (is("first") || is("last")) {
        a.allow(0, {});
        const List items = iterate(v, line);
        if (items.empty())
            return Value::undefined(QStringLiteral("No %1 item, sequence was empty.").arg(name));
        return is("first") ? items.front() : items.back();
    }
    if (is("list")) {
        a.allow(0, {});
        return Value::makeList(iterate(v, line));
    }
    if (is("reverse")) {
        a.allow(0, {});
        if (v.isString()) {
            std::u32string cps = py::codePoints(v.s);
            std::reverse(cps.begin(), cps.end());
            return Value::string(py::fromCodePoints(cps));
        }
        List items = iterate(v, line);
        std::reverse(items.begin(), items.end());
        return Value::makeList(std::move(items));
    }
    if (is("replace")) {
        a.allow(3, {"old", "new", "count"});
        const Value count = a.get(2, "count", Value::none());
        return Value::string(
            replace(py::str(v), py::str(a.get(0, "old", Value::string({}))),
                    py::str(a.get(1, "new", Value::string({}))),
                    count.isNone() ? -1 : needInt(count, QStringLiteral("replace count"))));
    }
    if (is("int") || is("float")) {
        a.allow(1, {"default"});
        bool ok = true;
        double d = 0;
        if (v.isNumber())
            d = v.toDouble();
        else if (v.isString())
            d = v.s.trimmed().toDouble(&ok);
        else
            ok = false;
        if (!ok)
            return a.get(0, "default", is("int") ? Value::integer(0) : Value::number(0));
        if (is("int")) {
            if (v.type == Value::Type::Int)
                return v;
            // Converting a double beyond 64 bits (or NaN) is undefined: the default instead.
            if (!(std::fabs(d) < 9.2e18))
                return a.get(0, "default", Value::integer(0));
            return Value::integer(qint64(std::trunc(d)));
        }
        return Value::number(d);
    }
    if (is("abs")) {
        a.allow(0, {});
        if (v.type == Value::Type::Int || v.type == Value::Type::Bool) {
            if (v.type == Value::Type::Int && v.i == std::numeric_limits<qint64>::min())
                fail(line, QStringLiteral("integer overflow (a template's integers are 64-bit "
                                          "here)"));
            return Value::integer(std::abs(needInt(v, name)));
        }
        if (v.type == Value::Type::Float)
            return Value::number(std::fabs(v.f));
        fail(line, QStringLiteral("bad operand type for abs(): '%1'").arg(v.typeName()));
    }
    if (is("indent")) {
        a.allow(3, {"width", "first", "blank"});
        if (!v.isString())
            fail(line, QStringLiteral("indent: expects a string, not %1").arg(v.typeName()));
        const Value width = a.get(0, "width", Value::integer(4));
        const qint64 spaces = width.isString() ? 0 : needInt(width, QStringLiteral("indent width"));
        chargeText(spaces);
        const QString pad = width.isString()
                                ? width.s
                                : QString(qsizetype(std::max<qint64>(0, spaces)), QLatin1Char(' '));
        const bool first = a.get(1, "first", Value::boolean(false)).truthy();
        const bool blank = a.get(2, "blank", Value::boolean(false)).truthy();
        const List lines = splitLines(py::str(v) + QLatin1Char('\n'));
        chargeText(v.s.size() + qint64(lines.size() + 1) * pad.size());
        QString out;
        for (size_t k = 0; k < lines.size(); ++k) {
            const QString& l = lines[k].s;
            if (k)
                out += QLatin1Char('\n') + ((blank || !l.isEmpty()) ? pad : QString());
            out += l;
        }
        return Value::string(first ? pad + out : out);
    }
    if (is("unique")) {
        a.allow(0, {});
        List out;
        for (const Value& x : iterate(v, line)) {
            bool seen = false;
            chargeWork(qint64(out.size()));
            for (const Value& y : out)
                seen = seen || (x.isString() && y.isString() ? x.s.toLower() == y.s.toLower()
                                                             : equals(x, y));
            if (!seen)
                out.push_back(x);
        }
        return Value::makeList(std::move(out));
    }
    if (is("map")) {
        a.allow(1, {"attribute", "default"});
        List out;
        const Value* attr = a.find(-1, "attribute");
        for (const Value& x : iterate(v, line)) {
            if (attr) {
                Value got = attr->isString() ? attribute(x, attr->s, line) : item(x, *attr, line);
                if (got.isUndefined())
                    got = a.get(-1, "default", got);
                out.push_back(got);
            } else {
                if (a.positional.empty())
                    fail(line, QStringLiteral("map needs a filter name or attribute="));
                const List rest(a.positional.begin() + 1, a.positional.end());
                const KwArgs none;
                out.push_back(applyFilter(needString(a.positional[0], QStringLiteral("map")), x,
                                          CallArgs{rest, none, a.positional[0].s}, line, test));
            }
        }
        return Value::makeList(std::move(out));
    }
    if (is("select") || is("reject") || is("selectattr") || is("rejectattr")) {
        const bool attr = is("selectattr") || is("rejectattr");
        const bool keep = is("select") || is("selectattr");
        const size_t testAt = attr ? 1 : 0;
        List out;
        for (const Value& x : iterate(v, line)) {
            Value subject = x;
            if (attr) {
                if (a.positional.empty())
                    fail(line, QStringLiteral("%1 needs an attribute name").arg(name));
                subject = attribute(x, needString(a.positional[0], name), line);
            }
            bool pass = subject.truthy();
            if (a.positional.size() > testAt) {
                const List rest(a.positional.begin() + qsizetype(testAt) + 1, a.positional.end());
                pass = test(needString(a.positional[testAt], name), subject, rest);
            }
            if (pass == keep)
                out.push_back(x);
        }
        return Value::makeList(std::move(out));
    }
    fail(line, QStringLiteral("the filter '%1' is not supported").arg(name));
}

bool applyTest(const QString& name, const Value& v, const List& args, int line)
{
    const auto is = [&](const char* n) { return name == QLatin1String(n); };
    const auto arg = [&]() -> const Value& {
        if (args.empty())
            fail(line, QStringLiteral("the test '%1' needs an argument").arg(name));
        return args[0];
    };
    using Ty = Value::Type;
    if (is("defined"))
        return !v.isUndefined();
    if (is("undefined"))
        return v.isUndefined();
    if (is("none"))
        return v.isNone();
    if (is("boolean"))
        return v.type == Ty::Bool;
    if (is("true"))
        return v.type == Ty::Bool && v.b;
    if (is("false"))
        return v.type == Ty::Bool && !v.b;
    if (is("integer"))
        return v.type == Ty::Int;
    if (is("float"))
        return v.type == Ty::Float;
    if (is("number"))
        return v.isNumber();
    if (is("string"))
        return v.isString();
    if (is("mapping"))
        return v.isDict();
    if (is("iterable"))
        return v.isUndefined() || v.isString() || v.isList() || v.isDict();
    if (is("sequence"))
        return v.isUndefined() || v.isString() || v.isList() || v.isDict();
    if (is("callable"))
        return v.type == Ty::Callable;
    if (is("odd") || is("even") || is("divisibleby")) {
        // Python's value % n on numbers: odd is == 1, even and divisibleby are == 0.
        const Value d = is("divisibleby") ? arg() : Value::integer(2);
        if (!v.isNumber() || !d.isNumber())
            fail(line, QStringLiteral("unsupported operand type(s) for %: '%1' and '%2'")
                           .arg(v.typeName(), d.typeName()));
        if (d.toDouble() == 0)
            fail(line, QStringLiteral("integer division or modulo by zero"));
        double r = std::fmod(v.toDouble(), d.toDouble());
        if (r != 0 && ((r < 0) != (d.toDouble() < 0)))
            r += d.toDouble();
        return is("odd") ? r == 1 : r == 0;
    }
    if (is("lower") || is("upper")) {
        const QString s = py::str(v);
        return is("lower") ? s == s.toLower() && s != s.toUpper()
                           : s == s.toUpper() && s != s.toLower();
    }
    if (is("sameas")) {
        const Value& o = arg();
        if (v.type != o.type)
            return false;
        if (v.type == Ty::None || v.type == Ty::Undefined)
            return true;
        if (v.type == Ty::Bool)
            return v.b == o.b;
        return equals(v, o) && v.list == o.list && v.dict == o.dict && v.fn == o.fn;
    }
    if (is("eq") || is("equalto") || is("==") || is("ne") || is("!="))
        return equals(v, arg()) == (is("eq") || is("equalto") || is("=="));
    if (is("in")) {
        const Value& c = arg();
        if (c.isString())
            return v.isString() && c.s.contains(v.s);
        if (c.isDict())
            return v.isString() && c.dict->find(v.s);
        for (const Value& x : iterate(c, line))
            if (equals(x, v))
                return true;
        return false;
    }
    fail(line, QStringLiteral("the test '%1' is not supported").arg(name));
}

Dict globalFunctions(const std::function<QDateTime()>& now)
{
    Dict g;
    g.set(QStringLiteral("raise_exception"),
          Value::function(QStringLiteral("raise_exception"), [](const List& a, const KwArgs&) {
              throw Error(QStringLiteral("the chat template rejects the conversation: %1")
                              .arg(a.empty() ? QString() : py::str(a[0])));
              return Value();
          }));
    g.set(QStringLiteral("strftime_now"),
          Value::function(QStringLiteral("strftime_now"), [now](const List& a, const KwArgs&) {
              if (a.size() != 1)
                  typeError(QStringLiteral("strftime_now takes one format string"));
              return Value::string(
                  strftime(now(), needString(a[0], QStringLiteral("strftime_now"))));
          }));
    g.set(QStringLiteral("namespace"),
          Value::function(QStringLiteral("namespace"), [](const List& a, const KwArgs& k) {
              Dict d;
              for (const Value& x : a) {
                  if (!x.isDict())
                      typeError(QStringLiteral("namespace() takes a dict and keywords"));
                  for (const auto& [key, value] : x.dict->items)
                      d.set(key, value);
              }
              for (const auto& [key, value] : k)
                  d.set(key, value);
              return Value::makeNamespace(std::move(d));
          }));
    g.set(QStringLiteral("dict"),
          Value::function(QStringLiteral("dict"), [](const List& a, const KwArgs& k) {
              Dict d;
              if (!a.empty())
                  typeError(QStringLiteral("dict() takes keyword arguments only here"));
              for (const auto& [key, value] : k)
                  d.set(key, value);
              return Value::makeDict(std::move(d));
          }));
    g.set(QStringLiteral("range"),
          Value::function(QStringLiteral("range"), [](const List& a, const KwArgs&) {
              if (a.empty() || a.size() > 3)
                  typeError(QStringLiteral("range expects 1 to 3 integers"));
              qint64 start = 0, stop = 0, step = 1;
              if (a.size() == 1) {
                  stop = needInt(a[0], QStringLiteral("range"));
              } else {
                  start = needInt(a[0], QStringLiteral("range"));
                  stop = needInt(a[1], QStringLiteral("range"));
                  if (a.size() == 3)
                      step = needInt(a[2], QStringLiteral("range"));
              }
              if (step == 0)
                  typeError(QStringLiteral("range() arg 3 must not be zero"));
              List out;
              for (qint64 k = start; step > 0 ? k < stop : k > stop; k += step) {
                  chargeWork(1);
                  out.push_back(Value::integer(k));
                  if (out.size() > 100000)
                      typeError(QStringLiteral("range() is limited to 100000 items"));
              }
              return Value::makeList(std::move(out));
          }));
    return g;
}

} // namespace kvl::jinja
