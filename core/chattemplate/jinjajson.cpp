#include "chattemplate/jinjajson.h"

#include "chattemplate/jinjapython.h"
#include "common/error.h"

#include <algorithm>
#include <cmath>

namespace kvl::jinja {
namespace {

class JsonReader
{
  public:
    JsonReader(const QByteArray& bytes, const QString& origin)
        : m_text(QString::fromUtf8(bytes)), m_origin(origin)
    {}

    Value document()
    {
        Value v = value();
        skipSpace();
        if (m_pos != m_text.size())
            fail(QStringLiteral("unexpected text after the JSON value"));
        return v;
    }

  private:
    [[noreturn]] void fail(const QString& what) const
    {
        const qsizetype lineStart = m_text.lastIndexOf(QLatin1Char('\n'), m_pos - 1) + 1;
        throw Error(m_origin, QStringLiteral("malformed JSON at line %1, column %2: %3")
                                  .arg(m_text.left(m_pos).count(QLatin1Char('\n')) + 1)
                                  .arg(m_pos - lineStart + 1)
                                  .arg(what));
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == QLatin1Char(' ') || m_text[m_pos] == QLatin1Char('\n') ||
                m_text[m_pos] == QLatin1Char('\r') || m_text[m_pos] == QLatin1Char('\t')))
            ++m_pos;
    }

    bool take(QLatin1String word)
    {
        if (QStringView(m_text).mid(m_pos).startsWith(word)) {
            m_pos += word.size();
            return true;
        }
        return false;
    }

    Value value()
    {
        skipSpace();
        if (m_pos >= m_text.size())
            fail(QStringLiteral("unexpected end"));
        const QChar c = m_text[m_pos];
        if (c == QLatin1Char('{'))
            return object();
        if (c == QLatin1Char('['))
            return array();
        if (c == QLatin1Char('"'))
            return Value::string(string());
        if (take(QLatin1String("true")))
            return Value::boolean(true);
        if (take(QLatin1String("false")))
            return Value::boolean(false);
        if (take(QLatin1String("null")))
            return Value::none();
        if (c == QLatin1Char('-') || c.isDigit())
            return number();
        fail(QStringLiteral("unexpected character '%1'").arg(c));
    }

    Value object()
    {
        ++m_pos;
        Dict d;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char('}')) {
            ++m_pos;
            return Value::makeDict(std::move(d));
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != QLatin1Char('"'))
                fail(QStringLiteral("expected a string key"));
            const QString key = string();
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != QLatin1Char(':'))
                fail(QStringLiteral("expected ':'"));
            ++m_pos;
            d.set(key, value());
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char(',')) {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char('}')) {
                ++m_pos;
                return Value::makeDict(std::move(d));
            }
            fail(QStringLiteral("expected ',' or '}'"));
        }
    }

    Value array()
    {
        ++m_pos;
        List items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char(']')) {
            ++m_pos;
            return Value::makeList(std::move(items));
        }
        while (true) {
            items.push_back(value());
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char(',')) {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char(']')) {
                ++m_pos;
                return Value::makeList(std::move(items));
            }
            fail(QStringLiteral("expected ',' or ']'"));
        }
    }

    QString string()
    {
        ++m_pos;
        QString out;
        while (true) {
            if (m_pos >= m_text.size())
                fail(QStringLiteral("unterminated string"));
            const QChar c = m_text[m_pos++];
            if (c == QLatin1Char('"'))
                return out;
            if (c.unicode() < 0x20)
                fail(QStringLiteral("control character in a string"));
            if (c != QLatin1Char('\\')) {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                fail(QStringLiteral("unterminated string"));
            const QChar e = m_text[m_pos++];
            switch (e.unicode()) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += QChar(0x08);
                break;
            case 'f':
                out += QChar(0x0c);
                break;
            case 'n':
                out += QLatin1Char('\n');
                break;
            case 'r':
                out += QLatin1Char('\r');
                break;
            case 't':
                out += QLatin1Char('\t');
                break;
            case 'u': {
                bool ok = false;
                const uint code = m_text.mid(m_pos, 4).toUInt(&ok, 16);
                if (!ok || m_text.mid(m_pos, 4).size() != 4)
                    fail(QStringLiteral("bad \\u escape"));
                m_pos += 4;
                out += QChar(char16_t(code));
                break;
            }
            default:
                fail(QStringLiteral("bad escape '\\%1'").arg(e));
            }
        }
    }

    Value number()
    {
        const qsizetype start = m_pos;
        if (m_text[m_pos] == QLatin1Char('-'))
            ++m_pos;
        bool integral = true;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos];
            if (c.isDigit()) {
                ++m_pos;
            } else if (c == QLatin1Char('.') || c == QLatin1Char('e') || c == QLatin1Char('E') ||
                       ((c == QLatin1Char('+') || c == QLatin1Char('-')) &&
                        (m_text[m_pos - 1] == QLatin1Char('e') ||
                         m_text[m_pos - 1] == QLatin1Char('E')))) {
                integral = false;
                ++m_pos;
            } else {
                break;
            }
        }
        const QString text = m_text.mid(start, m_pos - start);
        bool ok = false;
        if (integral) {
            const qint64 v = text.toLongLong(&ok);
            if (ok)
                return Value::integer(v);
            // Beyond 64 bits (a config's model_max_length of 1e30): kept as a float, so it
            // prints differently from Python's exact integer, which no template does.
        }
        const double d = text.toDouble(&ok);
        if (!ok)
            fail(QStringLiteral("bad number '%1'").arg(text));
        return Value::number(d);
    }

    QString m_text;
    QString m_origin;
    qsizetype m_pos = 0;
};

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
        out += quoted(v.s, o.ensureAscii);
        return;
    case Value::Type::List:
        if (v.list->empty()) {
            out += QLatin1String("[]");
            return;
        }
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
    case Value::Type::Dict: {
        if (v.dict->items.empty()) {
            out += QLatin1String("{}");
            return;
        }
        auto items = v.dict->items;
        if (o.sortKeys)
            std::stable_sort(items.begin(), items.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
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
    return JsonReader(bytes, origin).document();
}

QString dumpJson(const Value& v, const DumpOptions& options)
{
    QString out;
    dump(v, options, 0, out);
    return out;
}

} // namespace kvl::jinja
