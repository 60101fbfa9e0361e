#include "chattemplate/jinjapython.h"

#include "chattemplate/jinjabudget.h"

#include "common/error.h"

#include <QChar>
#include <QList>
#include <algorithm>
#include <charconv>
#include <cmath>

namespace kvl::jinja::py {

std::u32string codePoints(const QString& s)
{
    std::u32string out;
    out.reserve(size_t(s.size()));
    for (const char32_t c : s.toUcs4())
        out.push_back(c);
    return out;
}

QString fromCodePoints(const std::u32string& s)
{
    return QString::fromUcs4(s.data(), qsizetype(s.size()));
}

qint64 length(const QString& s)
{
    qint64 n = 0;
    for (qsizetype k = 0; k < s.size(); ++k)
        if (!s.at(k).isLowSurrogate())
            ++n;
    return n;
}

bool isSpace(char32_t c)
{
    // The characters CPython's str.isspace() accepts (bidirectional class WS, B or S,
    // or category Zs).
    if ((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 ||
        c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
        c == 0x205f || c == 0x3000)
        return true;
    return false;
}

QString strip(const QString& s, const std::optional<QString>& chars, bool left, bool right)
{
    const std::u32string cps = codePoints(s);
    const std::u32string set = chars ? codePoints(*chars) : std::u32string();
    auto drop = [&](char32_t c) {
        return chars ? set.find(c) != std::u32string::npos : isSpace(c);
    };
    size_t b = 0, e = cps.size();
    if (left)
        while (b < e && drop(cps[b]))
            ++b;
    if (right)
        while (e > b && drop(cps[e - 1]))
            --e;
    return fromCodePoints(cps.substr(b, e - b));
}

List split(const QString& s, const std::optional<QString>& sep, qint64 maxsplit)
{
    List out;
    if (sep) {
        if (sep->isEmpty())
            throw Error(QStringLiteral("str.split() got an empty separator"));
        qsizetype from = 0;
        while (maxsplit < 0 || qint64(out.size()) < maxsplit) {
            const qsizetype at = s.indexOf(*sep, from);
            if (at < 0)
                break;
            chargeAppend(qint64(out.size()) + 1);
            out.push_back(Value::string(s.mid(from, at - from)));
            from = at + sep->size();
        }
        out.push_back(Value::string(s.mid(from)));
        return out;
    }
    const std::u32string cps = codePoints(s);
    size_t k = 0;
    while (true) {
        while (k < cps.size() && isSpace(cps[k]))
            ++k;
        if (k == cps.size())
            break;
        if (maxsplit >= 0 && qint64(out.size()) == maxsplit) {
            size_t e = cps.size();
            while (e > k && isSpace(cps[e - 1]))
                --e;
            out.push_back(Value::string(fromCodePoints(cps.substr(k, e - k))));
            break;
        }
        size_t e = k;
        while (e < cps.size() && !isSpace(cps[e]))
            ++e;
        chargeAppend(qint64(out.size()) + 1);
        out.push_back(Value::string(fromCodePoints(cps.substr(k, e - k))));
        k = e;
    }
    return out;
}

QString floatRepr(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    // Shortest round-trip digits, laid out as CPython's repr: fixed notation for decimal
    // exponents in [-4, 16), scientific otherwise, and ".0" on integral values.
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    const bool negative = sci[0] == '-';
    if (negative)
        sci.erase(0, 1);
    const size_t ePos = sci.find('e');
    const int exp = std::stoi(sci.substr(ePos + 1));
    std::string digits = sci.substr(0, ePos);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    std::string out;
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            out = "0." + std::string(size_t(-exp - 1), '0') + digits;
        } else if (size_t(exp) + 1 >= digits.size()) {
            out = digits + std::string(size_t(exp) + 1 - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, size_t(exp) + 1) + "." + digits.substr(size_t(exp) + 1);
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        char e[16];
        std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
        out += e;
    }
    return QString::fromLatin1((negative ? "-" : "") + out);
}

namespace {

bool printable(char32_t c)
{
    if (c == ' ')
        return true;
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
    case QChar::Separator_Space:
        return false;
    default:
        return true;
    }
}

QString stringRepr(const QString& s)
{
    const QChar quote = s.contains(QLatin1Char('\'')) && !s.contains(QLatin1Char('"'))
                            ? QLatin1Char('"')
                            : QLatin1Char('\'');
    QString out(quote);
    for (const char32_t c : s.toUcs4()) {
        if (c == quote.unicode() || c == '\\') {
            out += QLatin1Char('\\');
            out += QChar(c);
        } else if (c == '\n') {
            out += QLatin1String("\\n");
        } else if (c == '\r') {
            out += QLatin1String("\\r");
        } else if (c == '\t') {
            out += QLatin1String("\\t");
        } else if (!printable(c)) {
            if (c < 0x100)
                out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
            else if (c < 0x10000)
                out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
            else
                out += QStringLiteral("\\U%1").arg(uint(c), 8, 16, QLatin1Char('0'));
        } else {
            out += QString::fromUcs4(&c, 1);
        }
    }
    out += quote;
    return out;
}

QString dictBody(const Dict& d)
{
    const ValueNesting nesting;
    QString out = QStringLiteral("{");
    bool first = true;
    for (const auto& [k, v] : d.items) {
        if (!first)
            out += QLatin1String(", ");
        first = false;
        const QString item = stringRepr(k) + QLatin1String(": ") + repr(v);
        chargeText(out.size() + item.size());
        out += item;
    }
    return out + QLatin1Char('}');
}

} // namespace

QString str(const Value& v)
{
    switch (v.type) {
    case Value::Type::Undefined:
        return {};
    case Value::Type::String:
        return v.s;
    default:
        return repr(v);
    }
}

QString repr(const Value& v)
{
    switch (v.type) {
    case Value::Type::Undefined:
        return QStringLiteral("Undefined");
    case Value::Type::None:
        return QStringLiteral("None");
    case Value::Type::Bool:
        return v.b ? QStringLiteral("True") : QStringLiteral("False");
    case Value::Type::Int:
        return QString::number(v.i);
    case Value::Type::Float:
        return floatRepr(v.f);
    case Value::Type::String:
        return stringRepr(v.s);
    case Value::Type::List: {
        const ValueNesting nesting;
        QString out = v.tuple ? QStringLiteral("(") : QStringLiteral("[");
        for (size_t k = 0; k < v.list->size(); ++k) {
            if (k)
                out += QLatin1String(", ");
            // A list may hold one long string a million times: checked as it grows.
            const QString item = repr((*v.list)[k]);
            chargeText(out.size() + item.size());
            out += item;
        }
        if (v.tuple && v.list->size() == 1)
            out += QLatin1Char(',');
        return out + (v.tuple ? QLatin1Char(')') : QLatin1Char(']'));
    }
    case Value::Type::Dict:
        return dictBody(*v.dict);
    case Value::Type::Namespace:
        return QStringLiteral("<Namespace %1>").arg(dictBody(*v.dict));
    case Value::Type::Callable:
        return QStringLiteral("<function %1>").arg(v.fn->name);
    }
    return {};
}

} // namespace kvl::jinja::py
