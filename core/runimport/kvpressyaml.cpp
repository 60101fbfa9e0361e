#include "runimport/kvpressyaml.h"

#include "common/error.h"
#include "runimport/sourcefiles.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <cmath>
#include <limits>
#include <vector>

namespace kvl {

namespace {
struct Line
{
    int no = 0;
    int indent = 0;
    QString text;       // without its indentation and trailing whitespace
    bool blank = false; // empty or a comment only
};

bool isSequenceItem(const QString& text)
{
    return text == QLatin1String("-") || text.startsWith(QLatin1String("- "));
}

// Text before a comment: a '#' at the start or after whitespace (YAML's rule; a '#'
// inside a word, as in "a#b", is text).
QString withoutComment(const QString& text)
{
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text[i] == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace()))
            return text.left(i).trimmed();
    return text.trimmed();
}

// The position of the ':' that ends a plain key (followed by a space or the line's
// end), or -1.
qsizetype keyColon(const QString& text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace()))
            return -1;
        if (text[i] == QLatin1Char(':') && (i + 1 == text.size() || text[i + 1].isSpace()))
            return i;
    }
    return -1;
}

// Plain scalars resolve as PyYAML's (YAML 1.1) safe loader resolves them.
QJsonValue resolvePlain(const QString& s)
{
    static const QStringList nulls = {QString(), QStringLiteral("~"), QStringLiteral("null"),
                                      QStringLiteral("Null"), QStringLiteral("NULL")};
    static const QStringList trues = {
        QStringLiteral("true"), QStringLiteral("True"), QStringLiteral("TRUE"),
        QStringLiteral("yes"),  QStringLiteral("Yes"),  QStringLiteral("YES"),
        QStringLiteral("on"),   QStringLiteral("On"),   QStringLiteral("ON")};
    static const QStringList falses = {
        QStringLiteral("false"), QStringLiteral("False"), QStringLiteral("FALSE"),
        QStringLiteral("no"),    QStringLiteral("No"),    QStringLiteral("NO"),
        QStringLiteral("off"),   QStringLiteral("Off"),   QStringLiteral("OFF")};
    if (nulls.contains(s))
        return QJsonValue::Null;
    if (trues.contains(s))
        return true;
    if (falses.contains(s))
        return false;
    // PyYAML's float needs a dot ("1e5" is a string there, "1.0e+05" a float).
    static const QRegularExpression integer(QStringLiteral("^[-+]?(0|[1-9][0-9_]*)$"));
    static const QRegularExpression real(
        QStringLiteral("^[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+]?[0-9]+)?$"));
    if (integer.match(s).hasMatch())
        return QJsonValue(QString(s).remove(QLatin1Char('_')).toLongLong());
    if ((real.match(s).hasMatch() && s.contains(QRegularExpression(QStringLiteral("[0-9]")))))
        return QString(s).remove(QLatin1Char('_')).toDouble();
    const QString lower = s.toLower();
    if (lower == QLatin1String(".inf") || lower == QLatin1String("+.inf"))
        return std::numeric_limits<double>::infinity();
    if (lower == QLatin1String("-.inf"))
        return -std::numeric_limits<double>::infinity();
    if (lower == QLatin1String(".nan"))
        return std::numeric_limits<double>::quiet_NaN();
    return s;
}

class YamlParser
{
  public:
    YamlParser(const QByteArray& bytes, QString path) : m_path(std::move(path))
    {
        const QStringList raw = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
        for (int i = 0; i < raw.size(); ++i)
            m_lines.push_back(splitLine(raw[i], i + 1));
    }

    YamlMapping parse()
    {
        YamlMapping out;
        skipBlank();
        if (atEnd())
            return out; // an empty document: PyYAML loads None, evaluate.py reads {}
        const Line& first = m_lines[m_i];
        if (isSequenceItem(first.text))
            fail(first.no, {}, QStringLiteral("the document is a list, not a mapping of fields"));
        out.values = parseMapping(first.indent, {}, &out.lines);
        skipBlank();
        if (!atEnd())
            fail(m_lines[m_i].no, {}, QStringLiteral("indented less than the fields before it"));
        return out;
    }

  private:
    Line splitLine(QString raw, int no) const
    {
        if (raw.endsWith(QLatin1Char('\r')))
            raw.chop(1);
        Line l;
        l.no = no;
        while (l.indent < raw.size() && raw[l.indent] == QLatin1Char(' '))
            ++l.indent;
        if (l.indent < raw.size() && raw[l.indent] == QLatin1Char('\t'))
            fail(no, {}, QStringLiteral("a tab in the indentation (YAML indents with spaces)"));
        l.text = raw.mid(l.indent);
        while (!l.text.isEmpty() && l.text.back().isSpace())
            l.text.chop(1);
        l.blank =
            l.text.isEmpty() || l.text.startsWith(QLatin1Char('#')) ||
            (l.indent == 0 && (l.text == QLatin1String("---") || l.text == QLatin1String("...")));
        return l;
    }

    [[noreturn]] void fail(int line, const QString& field, const QString& problem) const
    {
        const QString what =
            field.isEmpty() ? problem : QStringLiteral("field '%1': %2").arg(field, problem);
        throw Error(recordPlace(m_path, line),
                    QStringLiteral("not YAML this reader knows: %1").arg(what));
    }

    bool atEnd() const { return m_i >= m_lines.size(); }

    void skipBlank()
    {
        while (!atEnd() && m_lines[m_i].blank)
            ++m_i;
    }

    static QString child(const QString& parent, const QString& key)
    {
        return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
    }

    QJsonObject parseMapping(int indent, const QString& parent, QHash<QString, int>* lines)
    {
        QJsonObject out;
        QHash<QString, int> seen;
        while (true) {
            skipBlank();
            if (atEnd() || m_lines[m_i].indent < indent)
                break;
            const Line l = m_lines[m_i];
            if (l.indent > indent)
                fail(l.no, parent, QStringLiteral("unexpected indentation"));
            if (isSequenceItem(l.text)) {
                if (parent.isEmpty())
                    fail(l.no, parent,
                         QStringLiteral("a list item where 'key: value' was expected"));
                break; // the end of a mapping nested in a list item
            }
            const auto [key, rest] = splitKey(l, parent);
            const QString field = child(parent, key);
            if (seen.contains(key))
                fail(l.no, field,
                     QStringLiteral("given twice (first on line %1)").arg(seen.value(key)));
            seen.insert(key, l.no);
            if (lines)
                lines->insert(key, l.no);
            ++m_i;
            out.insert(key, rest.isEmpty() ? parseNested(indent, field)
                                           : parseInline(rest, l.no, indent, field));
        }
        return out;
    }

    std::pair<QString, QString> splitKey(const Line& l, const QString& parent) const
    {
        QString key;
        qsizetype after = 0;
        if (l.text.startsWith(QLatin1Char('"')) || l.text.startsWith(QLatin1Char('\''))) {
            const qsizetype close = closingQuote(l.text, 0);
            if (close < 0)
                fail(l.no, parent, QStringLiteral("the quoted key never closes"));
            key = decodeQuoted(l.text[0], l.text.mid(1, close - 1), l.no, parent);
            after = close + 1;
            if (after >= l.text.size() || l.text[after] != QLatin1Char(':'))
                fail(l.no, parent, QStringLiteral("expected ':' after the key %1").arg(key));
        } else {
            const qsizetype colon = keyColon(l.text);
            if (colon < 0)
                fail(l.no, parent, QStringLiteral("expected 'key: value', found '%1'").arg(l.text));
            key = l.text.left(colon).trimmed();
            after = colon;
        }
        if (key.isEmpty())
            fail(l.no, parent, QStringLiteral("a value without a key"));
        return {key, withoutCommentUnlessQuoted(l.text.mid(after + 1).trimmed())};
    }

    // A quoted or flow value keeps its '#'s (they may be inside the quotes); the
    // value's own reader drops a comment after it.
    static QString withoutCommentUnlessQuoted(const QString& rest)
    {
        if (rest.startsWith(QLatin1Char('"')) || rest.startsWith(QLatin1Char('\'')) ||
            rest.startsWith(QLatin1Char('[')) || rest.startsWith(QLatin1Char('{')))
            return rest;
        return withoutComment(rest);
    }

    // The value of `key:` with nothing after it: a block on the lines below (a list
    // may sit at the key's own indentation, as PyYAML writes it), or null.
    QJsonValue parseNested(int indent, const QString& field)
    {
        skipBlank();
        if (atEnd())
            return QJsonValue::Null;
        const Line& next = m_lines[m_i];
        if (next.indent > indent)
            return isSequenceItem(next.text)
                       ? QJsonValue(parseSequence(next.indent, field))
                       : QJsonValue(parseMapping(next.indent, field, nullptr));
        if (next.indent == indent && isSequenceItem(next.text))
            return parseSequence(indent, field);
        return QJsonValue::Null;
    }

    QJsonArray parseSequence(int indent, const QString& field)
    {
        QJsonArray out;
        while (true) {
            skipBlank();
            if (atEnd() || m_lines[m_i].indent < indent)
                break;
            Line& l = m_lines[m_i];
            if (l.indent > indent)
                fail(l.no, field, QStringLiteral("unexpected indentation"));
            if (!isSequenceItem(l.text))
                break; // a key at the list's indentation ends it
            const QString itemField = QStringLiteral("%1[%2]").arg(field).arg(out.size());
            const QString item = l.text.mid(1).trimmed();
            if (item.isEmpty() || item.startsWith(QLatin1Char('#'))) {
                ++m_i;
                out.append(parseNested(indent, itemField));
            } else if (!item.startsWith(QLatin1Char('"')) && !item.startsWith(QLatin1Char('\'')) &&
                       !item.startsWith(QLatin1Char('[')) && !item.startsWith(QLatin1Char('{')) &&
                       keyColon(item) >= 0) {
                // "- key: value": a mapping whose first key sits after the dash.
                l.indent += int(l.text.size() - item.size());
                l.text = item;
                out.append(parseMapping(l.indent, itemField, nullptr));
            } else {
                const int no = l.no;
                ++m_i;
                out.append(parseInline(item, no, indent, itemField));
            }
        }
        return out;
    }

    QJsonValue parseInline(QString text, int no, int indent, const QString& field)
    {
        // Tags (!!python/tuple, !custom) and anchors (&a) say nothing a reader of
        // these fields needs: the value after them is read.
        while (text.startsWith(QLatin1Char('!')) || text.startsWith(QLatin1Char('&'))) {
            const qsizetype space = text.indexOf(QLatin1Char(' '));
            text = space < 0 ? QString() : text.mid(space + 1).trimmed();
        }
        if (text.isEmpty())
            return parseNested(indent, field);
        const QChar c = text[0];
        if (c == QLatin1Char('|') || c == QLatin1Char('>'))
            fail(no, field, QStringLiteral("block scalars (| or >) are not read"));
        if (c == QLatin1Char('"') || c == QLatin1Char('\''))
            return parseQuoted(text, no, field);
        if (c == QLatin1Char('[') || c == QLatin1Char('{'))
            return parseFlow(text, no, field);
        return resolvePlain(plainContinued(withoutComment(text), indent, field));
    }

    // A plain scalar goes on over the lines indented deeper than its key, folded:
    // a line break is a space, an empty line a newline.
    QString plainContinued(QString value, int indent, const QString& field)
    {
        int pendingBreaks = 0;
        size_t j = m_i;
        while (j < m_lines.size()) {
            const Line& l = m_lines[j];
            if (l.text.isEmpty()) {
                ++pendingBreaks;
                ++j;
                continue;
            }
            if (l.indent <= indent || l.text.startsWith(QLatin1Char('#')))
                break;
            if (keyColon(l.text) >= 0) // PyYAML: "mapping values are not allowed here"
                fail(l.no, field,
                     QStringLiteral("unexpected indentation: a 'key: value' inside "
                                    "the value"));
            value +=
                pendingBreaks > 0 ? QString(pendingBreaks, QLatin1Char('\n')) : QStringLiteral(" ");
            value += withoutComment(l.text);
            pendingBreaks = 0;
            m_i = ++j;
        }
        return value;
    }

    // The index of the quote closing the one at `open`, or -1.
    static qsizetype closingQuote(const QString& text, qsizetype open)
    {
        const QChar q = text[open];
        for (qsizetype i = open + 1; i < text.size(); ++i) {
            if (q == QLatin1Char('"') && text[i] == QLatin1Char('\\')) {
                ++i;
                continue;
            }
            if (text[i] != q)
                continue;
            if (q == QLatin1Char('\'') && i + 1 < text.size() && text[i + 1] == q) {
                ++i; // '' is a quote inside single quotes
                continue;
            }
            return i;
        }
        return -1;
    }

    QJsonValue parseQuoted(QString text, int no, const QString& field)
    {
        qsizetype close = closingQuote(text, 0);
        while (close < 0) {
            if (atEnd())
                fail(no, field, QStringLiteral("the quoted value never closes"));
            text += QLatin1Char('\n') + m_lines[m_i++].text;
            close = closingQuote(text, 0);
        }
        const QString after = text.mid(close + 1).trimmed();
        if (!after.isEmpty() && !after.startsWith(QLatin1Char('#')))
            fail(no, field, QStringLiteral("text after the closing quote: '%1'").arg(after));
        return decodeQuoted(text[0], text.mid(1, close - 1), no, field);
    }

    // Folds a quoted scalar's lines (a break is a space, an empty line a newline, a
    // backslash at a double-quoted line's end joins without a space) and decodes its
    // escapes.
    QString decodeQuoted(QChar quote, const QString& body, int no, const QString& field) const
    {
        const bool dq = quote == QLatin1Char('"');
        const QStringList parts = body.split(QLatin1Char('\n'));
        QString folded;
        int pendingBreaks = 0;
        bool joinBare = false;
        for (qsizetype i = 0; i < parts.size(); ++i) {
            QString part = parts[i];
            if (i > 0)
                part = part.trimmed();
            if (i + 1 < parts.size())
                while (!part.isEmpty() && part.back().isSpace())
                    part.chop(1);
            if (i > 0 && part.isEmpty() && i + 1 < parts.size()) {
                ++pendingBreaks;
                continue;
            }
            if (i > 0 && !joinBare)
                folded += pendingBreaks > 0 ? QString(pendingBreaks, QLatin1Char('\n'))
                                            : QStringLiteral(" ");
            pendingBreaks = 0;
            joinBare = false;
            if (dq && i + 1 < parts.size() && endsWithOddBackslashes(part)) {
                part.chop(1);
                joinBare = true;
            }
            folded += part;
        }
        return dq ? unescapeDoubleQuoted(folded, no, field)
                  : folded.replace(QStringLiteral("''"), QStringLiteral("'"));
    }

    static bool endsWithOddBackslashes(const QString& s)
    {
        qsizetype n = 0;
        for (qsizetype i = s.size() - 1; i >= 0 && s[i] == QLatin1Char('\\'); --i)
            ++n;
        return n % 2 == 1;
    }

    QString unescapeDoubleQuoted(const QString& s, int no, const QString& field) const
    {
        QString out;
        for (qsizetype i = 0; i < s.size(); ++i) {
            if (s[i] != QLatin1Char('\\') || i + 1 >= s.size()) {
                out += s[i];
                continue;
            }
            const QChar e = s[++i];
            static const QHash<QChar, QChar> simple = {
                {QLatin1Char('n'), QLatin1Char('\n')}, {QLatin1Char('t'), QLatin1Char('\t')},
                {QLatin1Char('r'), QLatin1Char('\r')}, {QLatin1Char('0'), QChar(0)},
                {QLatin1Char('"'), QLatin1Char('"')},  {QLatin1Char('\\'), QLatin1Char('\\')},
                {QLatin1Char('/'), QLatin1Char('/')},  {QLatin1Char(' '), QLatin1Char(' ')},
                {QLatin1Char('a'), QChar(7)},          {QLatin1Char('b'), QChar(8)},
                {QLatin1Char('e'), QChar(27)},         {QLatin1Char('f'), QChar(12)},
                {QLatin1Char('v'), QChar(11)},         {QLatin1Char('N'), QChar(0x85)},
                {QLatin1Char('_'), QChar(0xA0)}};
            if (simple.contains(e)) {
                out += simple.value(e);
                continue;
            }
            if (!appendCodePointEscape(s, i, out))
                fail(no, field,
                     QStringLiteral("unknown escape '\\%1' in a double-quoted value").arg(e));
        }
        return out;
    }

    // A flow collection ([a, b], {k: v}) on one line or several, read whole.
    QJsonValue parseFlow(QString text, int no, const QString& field)
    {
        while (!flowBalanced(text)) {
            if (atEnd())
                fail(no, field, QStringLiteral("the bracket never closes"));
            text += QLatin1Char(' ') + m_lines[m_i++].text;
        }
        qsizetype pos = 0;
        const QJsonValue v = flowValue(text, pos, no, field);
        const QString after = text.mid(pos).trimmed();
        if (!after.isEmpty() && !after.startsWith(QLatin1Char('#')))
            fail(no, field, QStringLiteral("text after the closing bracket: '%1'").arg(after));
        return v;
    }

    static bool flowBalanced(const QString& text)
    {
        int depth = 0;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text[i];
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                const qsizetype close = closingQuote(text, i);
                if (close < 0)
                    return false;
                i = close;
            } else if (c == QLatin1Char('[') || c == QLatin1Char('{')) {
                ++depth;
            } else if (c == QLatin1Char(']') || c == QLatin1Char('}')) {
                if (--depth == 0)
                    return true;
            }
        }
        return depth == 0;
    }

    static void skipSpaces(const QString& t, qsizetype& pos)
    {
        while (pos < t.size() && t[pos].isSpace())
            ++pos;
    }

    QJsonValue flowValue(const QString& t, qsizetype& pos, int no, const QString& field) const
    {
        skipSpaces(t, pos);
        if (pos >= t.size())
            fail(no, field, QStringLiteral("a value is missing in the brackets"));
        const QChar c = t[pos];
        if (c == QLatin1Char('[') || c == QLatin1Char('{'))
            return flowCollection(t, pos, no, field);
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const qsizetype close = closingQuote(t, pos);
            const QString s = decodeQuoted(c, t.mid(pos + 1, close - pos - 1), no, field);
            pos = close + 1;
            return s;
        }
        const qsizetype start = pos;
        while (pos < t.size() && !QStringLiteral(",[]{}").contains(t[pos]) &&
               !(t[pos] == QLatin1Char(':') && (pos + 1 >= t.size() || t[pos + 1].isSpace())))
            ++pos;
        return resolvePlain(t.mid(start, pos - start).trimmed());
    }

    QJsonValue flowCollection(const QString& t, qsizetype& pos, int no, const QString& field) const
    {
        const bool isMap = t[pos] == QLatin1Char('{');
        const QChar close = isMap ? QLatin1Char('}') : QLatin1Char(']');
        ++pos;
        QJsonArray list;
        QJsonObject map;
        while (true) {
            skipSpaces(t, pos);
            if (pos < t.size() && t[pos] == close) {
                ++pos;
                break;
            }
            const QJsonValue item = flowValue(t, pos, no, field);
            skipSpaces(t, pos);
            if (isMap) {
                if (pos >= t.size() || t[pos] != QLatin1Char(':'))
                    fail(no, field, QStringLiteral("expected ':' after a key in braces"));
                ++pos;
                map.insert(item.isString() ? item.toString() : QString::number(item.toDouble()),
                           flowValue(t, pos, no, field));
                skipSpaces(t, pos);
            } else {
                list.append(item);
            }
            if (pos < t.size() && t[pos] == QLatin1Char(','))
                ++pos;
            else if (pos >= t.size() || t[pos] != close)
                fail(no, field, QStringLiteral("expected ',' or '%1' in the brackets").arg(close));
        }
        return isMap ? QJsonValue(map) : QJsonValue(list);
    }

    QString m_path;
    std::vector<Line> m_lines;
    size_t m_i = 0;
};
} // namespace

YamlMapping parseYamlMapping(const QByteArray& bytes, const QString& path)
{
    return YamlParser(bytes, path).parse();
}

bool appendCodePointEscape(const QString& s, qsizetype& i, QString& out)
{
    const QChar e = s[i];
    const int digits = e == QLatin1Char('x')   ? 2
                       : e == QLatin1Char('u') ? 4
                       : e == QLatin1Char('U') ? 8
                                               : 0;
    if (digits == 0 || i + digits >= s.size())
        return false;
    bool ok = false;
    const uint code = s.mid(i + 1, digits).toUInt(&ok, 16);
    if (!ok || code > 0x10FFFF)
        return false;
    const char32_t c = code;
    out += QString::fromUcs4(&c, 1);
    i += digits;
    return true;
}

} // namespace kvl
