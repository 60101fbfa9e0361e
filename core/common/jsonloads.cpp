#include "common/jsonloads.h"

#include <algorithm>

namespace kvl {
namespace {

// Python 3.11 refuses int() of a decimal string longer than this (sys.get_int_max_str_digits).
constexpr int kMaxIntDigits = 4300;

bool isDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

int hexValue(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= '0' && u <= '9')
        return u - '0';
    if (u >= 'a' && u <= 'f')
        return u - 'a' + 10;
    if (u >= 'A' && u <= 'F')
        return u - 'A' + 10;
    return -1;
}

// A recursive-descent reader over UTF-16 units. Every structural character of JSON is
// ASCII, so reading units instead of code points changes nothing: a surrogate pair
// inside a string is copied as its two units, which is the same text.
class Reader
{
  public:
    Reader(const QString& text, JsonLoadsError* error) : m_text(text), m_error(error) {}

    std::optional<JsonLoadsValue> document()
    {
        skipWhitespace();
        std::optional<JsonLoadsValue> value = parseValue(0);
        if (!value)
            return std::nullopt;
        skipWhitespace();
        if (m_pos != m_text.size())
            return fail(QStringLiteral("unexpected text after the JSON value")); // "Extra data"
        return value;
    }

  private:
    const QString& m_text;
    JsonLoadsError* m_error;
    qsizetype m_pos = 0;

    // Records why and where (the current position) parsing stopped; every refusal
    // returns through here, so the first failure is the one reported.
    std::nullopt_t fail(const QString& message) const
    {
        if (m_error) {
            const qsizetype at = std::min(m_pos, m_text.size());
            const qsizetype lineStart = m_text.lastIndexOf(QLatin1Char('\n'), at - 1) + 1;
            m_error->message = message;
            m_error->offset = at;
            m_error->line = QStringView(m_text).left(at).count(QLatin1Char('\n')) + 1;
            m_error->column = at - lineStart + 1;
        }
        return std::nullopt;
    }

    bool atEnd() const { return m_pos >= m_text.size(); }
    QChar peek() const { return atEnd() ? QChar() : m_text.at(m_pos); }

    void skipWhitespace()
    {
        while (!atEnd()) {
            const char16_t c = m_text.at(m_pos).unicode();
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                return;
            ++m_pos;
        }
    }

    bool consume(QLatin1StringView word)
    {
        if (QStringView(m_text).mid(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    std::optional<JsonLoadsValue> parseValue(int depth)
    {
        if (depth >= kJsonLoadsMaxDepth)
            return fail(QStringLiteral("nested deeper than %1 levels").arg(kJsonLoadsMaxDepth));
        if (atEnd())
            return fail(QStringLiteral("unexpected end"));
        JsonLoadsValue v;
        const char16_t c = peek().unicode();
        if (c == '"') {
            std::optional<QString> s = parseString();
            if (!s)
                return std::nullopt;
            v.type = JsonLoadsValue::Type::String;
            v.text = std::move(*s);
            return v;
        }
        if (c == '{')
            return parseObject(depth);
        if (c == '[')
            return parseArray(depth);
        if (consume(QLatin1StringView("null")))
            return v;
        if (consume(QLatin1StringView("true")) || consume(QLatin1StringView("false"))) {
            v.type = JsonLoadsValue::Type::Bool;
            v.boolean = c == 't';
            return v;
        }
        const qsizetype start = m_pos;
        if (consume(QLatin1StringView("NaN")) || consume(QLatin1StringView("Infinity")) ||
            consume(QLatin1StringView("-Infinity"))) {
            v.type = JsonLoadsValue::Type::Float;
            v.text = m_text.mid(start, m_pos - start);
            return v;
        }
        return parseNumber();
    }

    std::optional<JsonLoadsValue> parseNumber()
    {
        const qsizetype start = m_pos;
        bool negative = false;
        if (peek() == QLatin1Char('-')) {
            negative = true;
            ++m_pos;
        }
        const qsizetype digitsStart = m_pos;
        if (peek() == QLatin1Char('0'))
            ++m_pos;
        else if (isDigit(peek()) && peek() != QLatin1Char('0'))
            while (isDigit(peek()))
                ++m_pos;
        else if (negative)
            return fail(QStringLiteral("expected a digit after '-'"));
        else
            return fail(QStringLiteral("unexpected character '%1'").arg(peek()));
        const qsizetype digitsEnd = m_pos;
        bool isFloat = false;
        // A fraction needs a digit after the point and an exponent a digit after its
        // sign; otherwise the scanner stops before them (and the caller fails on the
        // leftover character).
        if (peek() == QLatin1Char('.') && m_pos + 1 < m_text.size() &&
            isDigit(m_text.at(m_pos + 1))) {
            m_pos += 1;
            while (isDigit(peek()))
                ++m_pos;
            isFloat = true;
        }
        if (peek() == QLatin1Char('e') || peek() == QLatin1Char('E')) {
            qsizetype p = m_pos + 1;
            if (p < m_text.size() &&
                (m_text.at(p) == QLatin1Char('+') || m_text.at(p) == QLatin1Char('-')))
                ++p;
            if (p < m_text.size() && isDigit(m_text.at(p))) {
                m_pos = p;
                while (isDigit(peek()))
                    ++m_pos;
                isFloat = true;
            }
        }
        JsonLoadsValue v;
        if (isFloat) {
            v.type = JsonLoadsValue::Type::Float;
            v.text = m_text.mid(start, m_pos - start);
            return v;
        }
        if (digitsEnd - digitsStart > kMaxIntDigits)
            return fail(QStringLiteral("integer of more than %1 digits").arg(kMaxIntDigits));
        v.type = JsonLoadsValue::Type::Int;
        v.text = m_text.mid(digitsStart, digitsEnd - digitsStart);
        // str(int("-0")) is "0": the sign survives only on a non-zero integer.
        if (negative && v.text != QLatin1String("0"))
            v.text.prepend(QLatin1Char('-'));
        return v;
    }

    std::optional<QString> parseString()
    {
        ++m_pos; // opening quote
        QString out;
        while (true) {
            if (atEnd())
                return fail(QStringLiteral("unterminated string"));
            const QChar c = m_text.at(m_pos++);
            if (c == QLatin1Char('"'))
                return out;
            if (c.unicode() <= 0x1f)
                return fail(QStringLiteral("control character in a string")); // strict mode
            if (c != QLatin1Char('\\')) {
                out.append(c);
                continue;
            }
            if (atEnd())
                return fail(QStringLiteral("unterminated string"));
            const char16_t e = m_text.at(m_pos++).unicode();
            switch (e) {
            case '"':
                out.append(QLatin1Char('"'));
                break;
            case '\\':
                out.append(QLatin1Char('\\'));
                break;
            case '/':
                out.append(QLatin1Char('/'));
                break;
            case 'b':
                out.append(QLatin1Char('\b'));
                break;
            case 'f':
                out.append(QLatin1Char('\f'));
                break;
            case 'n':
                out.append(QLatin1Char('\n'));
                break;
            case 'r':
                out.append(QLatin1Char('\r'));
                break;
            case 't':
                out.append(QLatin1Char('\t'));
                break;
            case 'u': {
                if (m_pos + 4 > m_text.size())
                    return fail(QStringLiteral("bad \\u escape"));
                int unit = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(m_text.at(m_pos + i));
                    if (h < 0)
                        return fail(QStringLiteral("bad \\u escape"));
                    unit = unit * 16 + h;
                }
                m_pos += 4;
                // A pair of escaped surrogates is one character to Python and the same
                // two units here; a lone surrogate stays one unit in both.
                out.append(QChar(char16_t(unit)));
                break;
            }
            default:
                return fail(QStringLiteral("bad escape '\\%1'").arg(QChar(e)));
            }
        }
    }

    std::optional<JsonLoadsValue> parseArray(int depth)
    {
        ++m_pos; // '['
        JsonLoadsValue v;
        v.type = JsonLoadsValue::Type::Array;
        skipWhitespace();
        if (peek() == QLatin1Char(']')) {
            ++m_pos;
            return v;
        }
        while (true) {
            std::optional<JsonLoadsValue> item = parseValue(depth + 1);
            if (!item)
                return std::nullopt;
            v.items.push_back(std::move(*item));
            skipWhitespace();
            if (peek() == QLatin1Char(']')) {
                ++m_pos;
                return v;
            }
            if (peek() != QLatin1Char(','))
                return fail(QStringLiteral("expected ',' or ']'"));
            ++m_pos;
            skipWhitespace();
        }
    }

    std::optional<JsonLoadsValue> parseObject(int depth)
    {
        ++m_pos; // '{'
        JsonLoadsValue v;
        v.type = JsonLoadsValue::Type::Object;
        skipWhitespace();
        if (peek() == QLatin1Char('}')) {
            ++m_pos;
            return v;
        }
        while (true) {
            if (peek() != QLatin1Char('"'))
                return fail(QStringLiteral("expected a string key"));
            std::optional<QString> key = parseString();
            if (!key)
                return std::nullopt;
            skipWhitespace();
            if (peek() != QLatin1Char(':'))
                return fail(QStringLiteral("expected ':'"));
            ++m_pos;
            skipWhitespace();
            std::optional<JsonLoadsValue> value = parseValue(depth + 1);
            if (!value)
                return std::nullopt;
            v.members.push_back({std::move(*key), std::move(*value)});
            skipWhitespace();
            if (peek() == QLatin1Char('}')) {
                ++m_pos;
                return v;
            }
            if (peek() != QLatin1Char(','))
                return fail(QStringLiteral("expected ',' or '}'"));
            ++m_pos;
            skipWhitespace();
        }
    }
};

} // namespace

const JsonLoadsValue* JsonLoadsValue::member(const QString& key) const
{
    for (auto it = members.rbegin(); it != members.rend(); ++it)
        if (it->key == key)
            return &it->value;
    return nullptr;
}

std::optional<JsonLoadsValue> jsonLoads(const QString& text, JsonLoadsError* error)
{
    return Reader(text, error).document();
}

} // namespace kvl
