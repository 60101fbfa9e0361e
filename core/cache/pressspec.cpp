#include "cache/pressspec.h"
#include <QStringList>

#include "common/error.h"

namespace kvl {
namespace {

class Parser
{
  public:
    explicit Parser(const QString& text) : m_text(text) {}

    PressSpec spec(int depth = 1)
    {
        // Specs come from spec files and command lines: a(a(a(...))) 100,000 deep would
        // overflow the stack here (and in every walk over the result).
        if (depth > kMaxPressNesting)
            fail(QStringLiteral("presses nested deeper than %1 levels").arg(kMaxPressNesting));
        PressSpec s;
        s.name = word(QStringLiteral("a press name"));
        if (peek() == u'(') {
            ++m_pos;
            s.inner.push_back(spec(depth + 1));
            while (peek() == u'+') {
                ++m_pos;
                s.inner.push_back(spec(depth + 1));
            }
            expect(u')');
        }
        if (peek() == u':') {
            ++m_pos;
            do {
                const QString key = word(QStringLiteral("a parameter name"));
                expect(u'=');
                const QString value = valueText();
                for (const auto& [k, v] : s.params)
                    if (k == key)
                        fail(QStringLiteral("parameter '%1' given twice").arg(key));
                s.params.emplace_back(key, value);
            } while (peek() == u',' && ++m_pos);
        }
        return s;
    }

    void end()
    {
        if (m_pos != m_text.size())
            fail(QStringLiteral("unexpected '%1'").arg(m_text[m_pos]));
    }

  private:
    QChar peek() const { return m_pos < m_text.size() ? m_text[m_pos] : QChar(); }

    [[noreturn]] void fail(const QString& problem) const
    {
        // A spec long enough to be refused for its nesting is not quoted whole.
        const QString shown = m_text.size() > 80 ? m_text.left(77) + QStringLiteral("...") : m_text;
        throw Error(QStringLiteral("press spec '%1'").arg(shown),
                    QStringLiteral("column %1: %2").arg(m_pos + 1).arg(problem));
    }

    void expect(QChar c)
    {
        if (peek() != c)
            fail(QStringLiteral("expected '%1'").arg(c));
        ++m_pos;
    }

    QString word(const QString& what)
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() &&
               (m_text[m_pos].isLetterOrNumber() || m_text[m_pos] == u'_' || m_text[m_pos] == u'-'))
            ++m_pos;
        if (m_pos == start)
            fail(QStringLiteral("expected %1").arg(what));
        return m_text.mid(start, m_pos - start).toLower();
    }

    QString valueText()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && !QStringLiteral(",+()").contains(m_text[m_pos]))
            ++m_pos;
        if (m_pos == start)
            fail(QStringLiteral("expected a value"));
        return m_text.mid(start, m_pos - start);
    }

    const QString& m_text;
    qsizetype m_pos = 0;
};

} // namespace

PressSpec PressSpec::parse(const QString& text)
{
    const QString trimmed = text.trimmed();
    Parser parser(trimmed);
    PressSpec s = parser.spec();
    parser.end();
    return s;
}

QString PressSpec::toString() const
{
    QString out = name;
    if (!inner.empty()) {
        QStringList parts;
        for (const PressSpec& s : inner)
            parts << s.toString();
        out += u'(' + parts.join(u'+') + u')';
    }
    if (!params.empty()) {
        QStringList parts;
        for (const auto& [k, v] : params)
            parts << k + u'=' + v;
        out += u':' + parts.join(u',');
    }
    return out;
}

} // namespace kvl
