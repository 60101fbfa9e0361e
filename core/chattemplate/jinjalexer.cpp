#include "chattemplate/jinjalexer.h"

#include "chattemplate/jinjaerror.h"
#include "chattemplate/jinjapython.h"
#include "common/error.h"

namespace kvl::jinja {
namespace {

bool isPySpace(QChar c)
{
    return py::isSpace(c.unicode());
}

// Python's \s for the characters of a tag; surrogates are never whitespace.
QString rstripped(const QString& s)
{
    qsizetype e = s.size();
    while (e > 0 && isPySpace(s[e - 1]))
        --e;
    return s.left(e);
}

// Python's unicode-escape decoding of a string literal's body, which is what Jinja
// applies to string literals.
QString unescape(const QString& body, int line)
{
    QString out;
    for (qsizetype k = 0; k < body.size(); ++k) {
        const QChar c = body[k];
        if (c != QLatin1Char('\\') || k + 1 == body.size()) {
            out += c;
            continue;
        }
        const QChar e = body[++k];
        auto hex = [&](int n) {
            bool ok = false;
            const uint code = body.mid(k + 1, n).toUInt(&ok, 16);
            if (!ok || body.mid(k + 1, n).size() != n)
                fail(line, QStringLiteral("bad \\%1 escape in a string literal").arg(e));
            k += n;
            const char32_t cp = code;
            out += QString::fromUcs4(&cp, 1);
        };
        switch (e.unicode()) {
        case '\n':
            break;
        case '\\':
        case '\'':
        case '"':
            out += e;
            break;
        case 'a':
            out += QChar(0x07);
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
        case 'v':
            out += QChar(0x0b);
            break;
        case 'x':
            hex(2);
            break;
        case 'u':
            hex(4);
            break;
        case 'U':
            hex(8);
            break;
        default:
            if (e >= QLatin1Char('0') && e <= QLatin1Char('7')) {
                uint code = 0;
                int n = 0;
                while (n < 3 && k < body.size() && body[k] >= QLatin1Char('0') &&
                       body[k] <= QLatin1Char('7')) {
                    code = code * 8 + (body[k].unicode() - '0');
                    ++k;
                    ++n;
                }
                --k;
                out += QChar(char16_t(code));
            } else if (e == QLatin1Char('N')) {
                fail(line, QStringLiteral("\\N{...} escapes are not supported"));
            } else {
                out += QLatin1Char('\\');
                out += e;
            }
        }
    }
    return out;
}

class Lexer
{
  public:
    explicit Lexer(const QString& source) : m_src(source)
    {
        m_src.replace(QLatin1String("\r\n"), QLatin1String("\n"));
        m_src.replace(QLatin1Char('\r'), QLatin1Char('\n'));
        if (m_src.endsWith(QLatin1Char('\n')))
            m_src.chop(1);
    }

    std::vector<Token> run()
    {
        while (m_pos < m_src.size()) {
            const qsizetype textStart = m_pos;
            qsizetype tag = m_pos;
            while (true) {
                tag = m_src.indexOf(QLatin1Char('{'), tag);
                if (tag < 0 || tag + 1 >= m_src.size())
                    break;
                const QChar k = m_src[tag + 1];
                if (k == QLatin1Char('{') || k == QLatin1Char('%') || k == QLatin1Char('#'))
                    break;
                ++tag;
            }
            if (tag < 0 || tag + 1 >= m_src.size()) {
                text(m_src.mid(textStart));
                break;
            }
            const QChar kind = m_src[tag + 1];
            const QChar modifier = tag + 2 < m_src.size() ? m_src[tag + 2] : QChar();
            QString data = m_src.mid(textStart, tag - textStart);
            if (modifier == QLatin1Char('-')) {
                data = rstripped(data);
            } else if (modifier != QLatin1Char('+') && kind != QLatin1Char('{')) {
                // lstrip_blocks: only whitespace between the line start and the tag.
                const qsizetype lineStart = data.lastIndexOf(QLatin1Char('\n')) + 1;
                const bool lineStarting = textStart == 0 || m_src[textStart - 1] == '\n';
                if (lineStart > 0 || lineStarting) {
                    bool blank = true;
                    for (qsizetype k = lineStart; k < data.size(); ++k)
                        blank = blank && isPySpace(data[k]);
                    if (blank)
                        data.truncate(lineStart);
                }
            }
            text(data);
            m_line += int(m_src.mid(textStart, tag - textStart).count(QLatin1Char('\n')));
            m_pos = tag + 2;
            if (modifier == QLatin1Char('-') || modifier == QLatin1Char('+'))
                ++m_pos;
            if (kind == QLatin1Char('#'))
                comment();
            else
                tagBody(kind == QLatin1Char('%'));
        }
        m_tokens.push_back({Token::Type::End, {}, m_line});
        return std::move(m_tokens);
    }

  private:
    void text(const QString& data)
    {
        if (!data.isEmpty())
            m_tokens.push_back({Token::Type::Text, data, m_line});
    }

    // After a tag's closing: "-" eats all following whitespace, trim_blocks one newline.
    void afterClose(QChar modifier, bool block)
    {
        const qsizetype from = m_pos;
        if (modifier == QLatin1Char('-')) {
            while (m_pos < m_src.size() && isPySpace(m_src[m_pos]))
                ++m_pos;
        } else if (modifier != QLatin1Char('+') && block && m_pos < m_src.size() &&
                   m_src[m_pos] == QLatin1Char('\n')) {
            ++m_pos;
        }
        m_line += int(m_src.mid(from, m_pos - from).count(QLatin1Char('\n')));
    }

    void comment()
    {
        const int line = m_line;
        const qsizetype end = m_src.indexOf(QLatin1String("#}"), m_pos);
        if (end < 0)
            fail(line, QStringLiteral("unclosed comment"));
        const QChar before = end > m_pos ? m_src[end - 1] : QChar();
        const QChar modifier =
            before == QLatin1Char('-') || before == QLatin1Char('+') ? before : QChar();
        m_line += int(m_src.mid(m_pos, end - m_pos).count(QLatin1Char('\n')));
        m_pos = end + 2;
        afterClose(modifier, true);
    }

    void tagBody(bool block)
    {
        const int startLine = m_line;
        m_tokens.push_back(
            {block ? Token::Type::BlockBegin : Token::Type::VarBegin, {}, startLine});
        const QLatin1String close = block ? QLatin1String("%}") : QLatin1String("}}");
        int depth = 0;
        while (true) {
            while (m_pos < m_src.size() && isPySpace(m_src[m_pos])) {
                if (m_src[m_pos] == QLatin1Char('\n'))
                    ++m_line;
                ++m_pos;
            }
            if (m_pos >= m_src.size())
                fail(startLine, block ? QStringLiteral("unclosed block tag '{%'")
                                      : QStringLiteral("unclosed variable tag '{{'"));
            const QStringView rest = QStringView(m_src).mid(m_pos);
            if (depth == 0) {
                QChar modifier;
                if ((rest.startsWith(QLatin1Char('-')) || rest.startsWith(QLatin1Char('+'))) &&
                    rest.mid(1).startsWith(close))
                    modifier = rest[0];
                if (!modifier.isNull() || rest.startsWith(close)) {
                    m_pos += close.size() + (modifier.isNull() ? 0 : 1);
                    m_tokens.push_back(
                        {block ? Token::Type::BlockEnd : Token::Type::VarEnd, {}, m_line});
                    afterClose(modifier, block);
                    return;
                }
            }
            const QChar c = rest[0];
            if (c.isLetter() || c == QLatin1Char('_')) {
                qsizetype n = 1;
                while (n < rest.size() &&
                       (rest[n].isLetterOrNumber() || rest[n] == QLatin1Char('_')))
                    ++n;
                push(Token::Type::Name, rest.left(n).toString(), n);
                if (block && m_tokens.size() >= 2 &&
                    m_tokens[m_tokens.size() - 2].type == Token::Type::BlockBegin &&
                    m_tokens.back().value == QLatin1String("raw"))
                    fail(m_line, QStringLiteral("'raw' blocks are not supported"));
            } else if (c.isDigit()) {
                number(rest);
            } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
                string(rest, c);
            } else {
                static const char* const ops[] = {"//", "**", "==", "!=", "<=", ">=", "+", "-", "*",
                                                  "/",  "%",  "~",  "[",  "]",  "(",  ")", "{", "}",
                                                  "<",  ">",  "=",  ".",  ":",  "|",  ",", ";"};
                bool matched = false;
                for (const char* op : ops) {
                    const QLatin1String o(op);
                    if (rest.startsWith(o)) {
                        if (o == QLatin1String("(") || o == QLatin1String("[") ||
                            o == QLatin1String("{"))
                            ++depth;
                        else if (o == QLatin1String(")") || o == QLatin1String("]") ||
                                 o == QLatin1String("}"))
                            --depth;
                        push(Token::Type::Operator, o, o.size());
                        matched = true;
                        break;
                    }
                }
                if (!matched)
                    fail(m_line, QStringLiteral("unexpected character '%1'").arg(c));
            }
        }
    }

    void push(Token::Type type, const QString& value, qsizetype consumed)
    {
        m_tokens.push_back({type, value, m_line});
        m_pos += consumed;
    }

    void number(QStringView rest)
    {
        qsizetype n = 0;
        auto digits = [&] {
            while (n < rest.size() && (rest[n].isDigit() || rest[n] == QLatin1Char('_')))
                ++n;
        };
        digits();
        bool isFloat = false;
        if (n + 1 < rest.size() && rest[n] == QLatin1Char('.') && rest[n + 1].isDigit()) {
            isFloat = true;
            ++n;
            digits();
        }
        if (n < rest.size() && (rest[n] == QLatin1Char('e') || rest[n] == QLatin1Char('E'))) {
            qsizetype m = n + 1;
            if (m < rest.size() && (rest[m] == QLatin1Char('+') || rest[m] == QLatin1Char('-')))
                ++m;
            if (m < rest.size() && rest[m].isDigit()) {
                isFloat = true;
                n = m;
                digits();
            }
        }
        QString text = rest.left(n).toString();
        const qsizetype consumed = n;
        text.remove(QLatin1Char('_'));
        push(isFloat ? Token::Type::Float : Token::Type::Int, text, consumed);
    }

    void string(QStringView rest, QChar quote)
    {
        qsizetype n = 1;
        while (n < rest.size() && rest[n] != quote) {
            if (rest[n] == QLatin1Char('\\'))
                ++n;
            ++n;
        }
        if (n >= rest.size())
            fail(m_line, QStringLiteral("unterminated string literal"));
        const QString body = rest.mid(1, n - 1).toString();
        const int line = m_line;
        push(Token::Type::String, unescape(body, line), n + 1);
        m_line += int(body.count(QLatin1Char('\n')));
    }

    QString m_src;
    qsizetype m_pos = 0;
    int m_line = 1;
    std::vector<Token> m_tokens;
};

} // namespace

std::vector<Token> tokenize(const QString& source)
{
    return Lexer(source).run();
}

} // namespace kvl::jinja
