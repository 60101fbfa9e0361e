#include "chattemplate/jinjaparser.h"

#include "chattemplate/jinjaerror.h"
#include "chattemplate/jinjalimits.h"
#include "common/error.h"

#include <QSet>

namespace kvl::jinja {
namespace {

using T = Token::Type;

class Parser
{
  public:
    explicit Parser(const std::vector<Token>& tokens) : m_tokens(tokens) {}

    Body run()
    {
        QString end;
        Body body = statements({}, end);
        if (cur().type != T::End)
            fail(QStringLiteral("unexpected '%1'").arg(end));
        return body;
    }

  private:
    // One level of nesting, held while it is parsed: a bracket, a block, a unary
    // operator, or a link of a chain (a + b + c nests its sums to the left, so each link
    // deepens the tree the renderer walks recursively). Past kMaxNesting, an error, so
    // neither this parser's recursion nor the renderer's can exhaust the stack.
    class Nest
    {
      public:
        explicit Nest(Parser& p, int links = 1) : m_p(p)
        {
            for (int k = 0; k < links; ++k)
                link();
        }
        ~Nest() { m_p.m_depth -= m_links; }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;
        void link()
        {
            ++m_links;
            if (++m_p.m_depth > kMaxNesting)
                m_p.fail(QStringLiteral("nested deeper than %1 levels (brackets, operators, "
                                        "filters, elif branches and blocks together; KVLens's "
                                        "limit on a chat template's nesting)")
                             .arg(kMaxNesting));
        }

      private:
        Parser& m_p;
        int m_links = 0;
    };

    const Token& cur() const { return m_tokens[m_pos]; }
    const Token& peek(int n = 1) const
    {
        return m_tokens[std::min(m_pos + n, m_tokens.size() - 1)];
    }
    void next()
    {
        if (m_pos + 1 < m_tokens.size())
            ++m_pos;
    }

    [[noreturn]] void fail(const QString& what) const
    {
        jinja::fail(cur().line, what);
    }

    QString describe(const Token& t) const
    {
        switch (t.type) {
        case T::End:
            return QStringLiteral("end of template");
        case T::VarEnd:
            return QStringLiteral("'}}'");
        case T::BlockEnd:
            return QStringLiteral("'%}'");
        case T::String:
            return QStringLiteral("string");
        default:
            return QStringLiteral("'%1'").arg(t.value);
        }
    }

    bool isOp(const char* op) const
    {
        return cur().type == T::Operator && cur().value == QLatin1String(op);
    }
    bool isName(const char* name) const
    {
        return cur().type == T::Name && cur().value == QLatin1String(name);
    }
    bool skipOp(const char* op)
    {
        if (!isOp(op))
            return false;
        next();
        return true;
    }
    bool skipName(const char* name)
    {
        if (!isName(name))
            return false;
        next();
        return true;
    }
    void expectOp(const char* op)
    {
        if (!skipOp(op))
            fail(QStringLiteral("expected '%1', found %2").arg(QLatin1String(op), describe(cur())));
    }
    QString expectName()
    {
        if (cur().type != T::Name)
            fail(QStringLiteral("expected a name, found %1").arg(describe(cur())));
        QString n = cur().value;
        next();
        return n;
    }
    void expectBlockEnd()
    {
        if (cur().type != T::BlockEnd)
            fail(QStringLiteral("expected '%}', found %1").arg(describe(cur())));
        next();
    }

    // Statements up to a block tag whose name is in `ends`; that name goes to `end` and
    // the stream stops just after it (before the tag's arguments).
    Body statements(const QSet<QString>& ends, QString& end)
    {
        const Nest nest(*this);
        Body body;
        while (true) {
            const Token& t = cur();
            if (t.type == T::End) {
                if (!ends.isEmpty())
                    fail(QStringLiteral("missing end tag (one of %1)")
                             .arg(QStringList(ends.begin(), ends.end()).join(QLatin1String(", "))));
                return body;
            }
            if (t.type == T::Text) {
                auto s = std::make_shared<Stmt>();
                s->kind = Stmt::Kind::Text;
                s->line = t.line;
                s->text = t.value;
                body.push_back(s);
                next();
            } else if (t.type == T::VarBegin) {
                next();
                auto s = std::make_shared<Stmt>();
                s->kind = Stmt::Kind::Output;
                s->line = t.line;
                s->expr = tupleExpr(true);
                if (cur().type != T::VarEnd)
                    fail(QStringLiteral("expected '}}', found %1").arg(describe(cur())));
                next();
                body.push_back(s);
            } else if (t.type == T::BlockBegin) {
                next();
                if (cur().type != T::Name)
                    fail(QStringLiteral("expected a tag name, found %1").arg(describe(cur())));
                const QString name = cur().value;
                if (ends.contains(name)) {
                    end = name;
                    next();
                    return body;
                }
                body.push_back(statement());
            } else {
                fail(QStringLiteral("unexpected %1").arg(describe(t)));
            }
        }
    }

    StmtPtr statement()
    {
        const int line = cur().line;
        const QString tag = cur().value;
        next();
        auto s = std::make_shared<Stmt>();
        s->line = line;
        QString end;
        if (tag == QLatin1String("if")) {
            return ifRest(line);
        } else if (tag == QLatin1String("for")) {
            s->kind = Stmt::Kind::For;
            assignTarget(*s, false);
            if (!skipName("in"))
                fail(QStringLiteral("expected 'in', found %1").arg(describe(cur())));
            s->expr = tupleExpr(false);
            if (skipName("if"))
                s->filter = expression(true);
            if (isName("recursive"))
                fail(QStringLiteral("recursive for loops are not supported"));
            expectBlockEnd();
            s->body = statements({QStringLiteral("endfor"), QStringLiteral("else")}, end);
            if (end == QLatin1String("else")) {
                expectBlockEnd();
                s->elseBody = statements({QStringLiteral("endfor")}, end);
            }
            expectBlockEnd();
        } else if (tag == QLatin1String("set")) {
            assignTarget(*s, true);
            if (skipOp("=")) {
                s->kind = Stmt::Kind::Set;
                s->expr = tupleExpr(true);
                expectBlockEnd();
            } else {
                if (s->unpack || !s->attr.isEmpty())
                    fail(QStringLiteral("a block set needs a single name"));
                if (isOp("|"))
                    fail(QStringLiteral("filters on a block set are not supported"));
                s->kind = Stmt::Kind::SetBlock;
                expectBlockEnd();
                s->body = statements({QStringLiteral("endset")}, end);
                expectBlockEnd();
            }
        } else if (tag == QLatin1String("macro")) {
            s->kind = Stmt::Kind::Macro;
            s->text = expectName();
            expectOp("(");
            while (!skipOp(")")) {
                if (!s->params.empty())
                    expectOp(",");
                if (skipOp(")"))
                    break;
                s->params.push_back(expectName());
                s->defaults.push_back(skipOp("=") ? expression(true) : nullptr);
            }
            expectBlockEnd();
            s->body = statements({QStringLiteral("endmacro")}, end);
            if (cur().type == T::Name)
                next(); // {% endmacro name %}
            expectBlockEnd();
        } else if (tag == QLatin1String("break") || tag == QLatin1String("continue")) {
            s->kind = tag == QLatin1String("break") ? Stmt::Kind::Break : Stmt::Kind::Continue;
            expectBlockEnd();
        } else if (tag == QLatin1String("generation")) {
            s->kind = Stmt::Kind::Generation;
            expectBlockEnd();
            s->body = statements({QStringLiteral("endgeneration")}, end);
            expectBlockEnd();
        } else {
            m_pos -= 1;
            fail(QStringLiteral("the '%1' tag is not supported").arg(tag));
        }
        return s;
    }

    StmtPtr ifRest(int line, bool elif = false)
    {
        const Nest nest(*this, elif ? 1 : 0); // an elif nests an if in the else branch
        auto s = std::make_shared<Stmt>();
        s->kind = Stmt::Kind::If;
        s->line = line;
        s->expr = tupleExpr(false);
        expectBlockEnd();
        QString end;
        s->body = statements(
            {QStringLiteral("elif"), QStringLiteral("else"), QStringLiteral("endif")}, end);
        if (end == QLatin1String("elif")) {
            s->elseBody.push_back(ifRest(cur().line, true));
            return s; // the nested if consumed the endif
        }
        if (end == QLatin1String("else")) {
            expectBlockEnd();
            s->elseBody = statements({QStringLiteral("endif")}, end);
        }
        expectBlockEnd();
        return s;
    }

    // name | name.attr (set only) | a, b | (a, b)
    void assignTarget(Stmt& s, bool allowAttr)
    {
        const bool paren = skipOp("(");
        s.targets.push_back(expectName());
        if (allowAttr && !paren && skipOp(".")) {
            s.attr = expectName();
            return;
        }
        while (skipOp(",")) {
            s.unpack = true;
            if (cur().type != T::Name)
                break;
            s.targets.push_back(expectName());
        }
        if (paren) {
            expectOp(")");
            s.unpack = true;
        }
    }

    ExprPtr make(Expr::Kind kind, std::vector<ExprPtr> args, int line, const QString& name = {})
    {
        auto e = std::make_shared<Expr>();
        e->kind = kind;
        e->line = line;
        e->name = name;
        e->args = std::move(args);
        return e;
    }

    bool atTupleEnd() const
    {
        return cur().type == T::VarEnd || cur().type == T::BlockEnd || isOp(")") || isName("in") ||
               isName("if") || isName("recursive");
    }

    ExprPtr tupleExpr(bool withCondexpr)
    {
        const int line = cur().line;
        ExprPtr first = expression(withCondexpr);
        if (!isOp(","))
            return first;
        std::vector<ExprPtr> items{first};
        while (skipOp(",")) {
            if (atTupleEnd())
                break;
            items.push_back(expression(withCondexpr));
        }
        auto e = std::make_shared<Expr>();
        e->kind = Expr::Kind::List;
        e->tuple = true;
        e->line = line;
        e->args = std::move(items);
        return e;
    }

    ExprPtr expression(bool withCondexpr)
    {
        const Nest nest(*this);
        return withCondexpr ? condExpr() : orExpr();
    }

    ExprPtr condExpr()
    {
        Nest chain(*this, 0);
        ExprPtr e = orExpr();
        while (isName("if")) {
            chain.link();
            const int line = cur().line;
            next();
            ExprPtr cond = orExpr();
            ExprPtr other = skipName("else") ? condExpr() : nullptr;
            e = make(Expr::Kind::CondExpr, {cond, e, other}, line);
        }
        return e;
    }

    ExprPtr orExpr()
    {
        Nest chain(*this, 0);
        ExprPtr e = andExpr();
        while (isName("or")) {
            chain.link();
            const int line = cur().line;
            next();
            e = make(Expr::Kind::Or, {e, andExpr()}, line);
        }
        return e;
    }

    ExprPtr andExpr()
    {
        Nest chain(*this, 0);
        ExprPtr e = notExpr();
        while (isName("and")) {
            chain.link();
            const int line = cur().line;
            next();
            e = make(Expr::Kind::And, {e, notExpr()}, line);
        }
        return e;
    }

    ExprPtr notExpr()
    {
        if (isName("not")) {
            const Nest nest(*this);
            const int line = cur().line;
            next();
            return make(Expr::Kind::Not, {notExpr()}, line);
        }
        return compare();
    }

    ExprPtr compare()
    {
        const int line = cur().line;
        ExprPtr first = math1();
        auto e = std::make_shared<Expr>();
        e->kind = Expr::Kind::Compare;
        e->line = line;
        e->args.push_back(first);
        while (true) {
            static const char* const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
            bool found = false;
            for (const char* op : cmp)
                if (isOp(op)) {
                    e->ops.push_back(QLatin1String(op));
                    next();
                    found = true;
                    break;
                }
            if (!found && isName("in")) {
                e->ops.push_back(QStringLiteral("in"));
                next();
                found = true;
            } else if (!found && isName("not") && peek().type == T::Name &&
                       peek().value == QLatin1String("in")) {
                e->ops.push_back(QStringLiteral("notin"));
                next();
                next();
                found = true;
            }
            if (!found)
                break;
            e->args.push_back(math1());
        }
        if (e->ops.empty())
            return first;
        return e;
    }

    ExprPtr binaryLevel(std::initializer_list<const char*> ops, ExprPtr (Parser::*sub)())
    {
        Nest chain(*this, 0);
        ExprPtr e = (this->*sub)();
        while (true) {
            const char* found = nullptr;
            for (const char* op : ops)
                if (isOp(op))
                    found = op;
            if (!found)
                return e;
            chain.link();
            const int line = cur().line;
            next();
            e = make(Expr::Kind::Binary, {e, (this->*sub)()}, line, QLatin1String(found));
        }
    }

    ExprPtr math1() { return binaryLevel({"+", "-"}, &Parser::concat); }
    ExprPtr concat() { return binaryLevel({"~"}, &Parser::math2); }
    ExprPtr math2() { return binaryLevel({"*", "/", "//", "%"}, &Parser::power); }
    ExprPtr power() { return binaryLevel({"**"}, &Parser::unaryFiltered); }
    ExprPtr unaryFiltered() { return unary(true); }

    ExprPtr unary(bool withFilter)
    {
        const int line = cur().line;
        const Nest nest(*this, isOp("-") || isOp("+") ? 1 : 0);
        ExprPtr e;
        if (skipOp("-"))
            e = make(Expr::Kind::Neg, {unary(false)}, line);
        else if (skipOp("+"))
            e = make(Expr::Kind::Pos, {unary(false)}, line);
        else
            e = primary();
        e = postfix(e);
        if (withFilter)
            e = filterExpr(e);
        return e;
    }

    ExprPtr constant(const Value& v, int line)
    {
        auto e = std::make_shared<Expr>();
        e->kind = Expr::Kind::Const;
        e->line = line;
        e->constant = v;
        return e;
    }

    ExprPtr primary()
    {
        const Token t = cur();
        if (t.type == T::Name) {
            next();
            if (t.value == QLatin1String("true") || t.value == QLatin1String("True"))
                return constant(Value::boolean(true), t.line);
            if (t.value == QLatin1String("false") || t.value == QLatin1String("False"))
                return constant(Value::boolean(false), t.line);
            if (t.value == QLatin1String("none") || t.value == QLatin1String("None"))
                return constant(Value::none(), t.line);
            return make(Expr::Kind::Name, {}, t.line, t.value);
        }
        if (t.type == T::String) {
            QString s;
            while (cur().type == T::String) {
                s += cur().value;
                next();
            }
            return constant(Value::string(s), t.line);
        }
        if (t.type == T::Int) {
            next();
            bool ok = false;
            const qint64 v = t.value.toLongLong(&ok);
            if (!ok)
                fail(QStringLiteral("integer literal %1 is out of range").arg(t.value));
            return constant(Value::integer(v), t.line);
        }
        if (t.type == T::Float) {
            next();
            return constant(Value::number(t.value.toDouble()), t.line);
        }
        if (skipOp("(")) {
            if (skipOp(")"))
                return constant(Value::makeList({}, true), t.line);
            ExprPtr first = expression(true);
            if (skipOp(")"))
                return first;
            auto e = std::make_shared<Expr>();
            e->kind = Expr::Kind::List;
            e->tuple = true;
            e->line = t.line;
            e->args.push_back(first);
            while (skipOp(",")) {
                if (isOp(")"))
                    break;
                e->args.push_back(expression(true));
            }
            expectOp(")");
            return e;
        }
        if (skipOp("[")) {
            auto e = std::make_shared<Expr>();
            e->kind = Expr::Kind::List;
            e->line = t.line;
            while (!skipOp("]")) {
                if (!e->args.empty())
                    expectOp(",");
                if (skipOp("]"))
                    break;
                e->args.push_back(expression(true));
            }
            return e;
        }
        if (skipOp("{")) {
            auto e = std::make_shared<Expr>();
            e->kind = Expr::Kind::Dict;
            e->line = t.line;
            while (!skipOp("}")) {
                if (!e->args.empty())
                    expectOp(",");
                if (skipOp("}"))
                    break;
                e->args.push_back(expression(true));
                expectOp(":");
                e->args.push_back(expression(true));
            }
            return e;
        }
        fail(QStringLiteral("unexpected %1").arg(describe(t)));
    }

    ExprPtr postfix(ExprPtr e)
    {
        Nest chain(*this, 0);
        while (true) {
            if (isOp(".") || isOp("[") || isOp("("))
                chain.link();
            const int line = cur().line;
            if (skipOp(".")) {
                if (cur().type == T::Int) {
                    ExprPtr index = constant(Value::integer(cur().value.toLongLong()), line);
                    next();
                    e = make(Expr::Kind::GetItem, {e, index}, line);
                } else {
                    e = make(Expr::Kind::GetAttr, {e}, line, expectName());
                }
            } else if (skipOp("[")) {
                e = subscript(e, line);
            } else if (isOp("(")) {
                e = call(e);
            } else {
                return e;
            }
        }
    }

    ExprPtr subscript(ExprPtr e, int line)
    {
        ExprPtr parts[3];
        bool slice = false;
        int part = 0;
        while (!isOp("]")) {
            if (skipOp(":")) {
                slice = true;
                if (++part > 2)
                    fail(QStringLiteral("too many ':' in a slice"));
                continue;
            }
            if (isOp(","))
                fail(QStringLiteral("subscripts with ',' are not supported"));
            if (parts[part])
                fail(QStringLiteral("expected ':' or ']', found %1").arg(describe(cur())));
            parts[part] = expression(true);
        }
        expectOp("]");
        if (!slice) {
            if (!parts[0])
                fail(QStringLiteral("empty subscript"));
            return make(Expr::Kind::GetItem, {e, parts[0]}, line);
        }
        return make(Expr::Kind::Slice, {e, parts[0], parts[1], parts[2]}, line);
    }

    // (args) after a callee, filter or test: positional then keyword arguments.
    void arguments(Expr& e)
    {
        expectOp("(");
        bool first = true;
        while (!skipOp(")")) {
            if (!first)
                expectOp(",");
            first = false;
            if (skipOp(")"))
                break;
            if (isOp("*") || isOp("**"))
                fail(QStringLiteral("*args and **kwargs in calls are not supported"));
            if (cur().type == T::Name && peek().type == T::Operator &&
                peek().value == QLatin1String("=")) {
                const QString key = cur().value;
                next();
                next();
                e.kwargs.emplace_back(key, expression(true));
            } else {
                if (!e.kwargs.empty())
                    fail(QStringLiteral("a positional argument follows a keyword argument"));
                e.args.push_back(expression(true));
            }
        }
    }

    ExprPtr call(ExprPtr callee)
    {
        auto e = std::make_shared<Expr>();
        e->kind = Expr::Kind::Call;
        e->line = cur().line;
        e->args.push_back(callee);
        arguments(*e);
        return e;
    }

    QString dottedName()
    {
        QString name = expectName();
        while (skipOp("."))
            name += QLatin1Char('.') + expectName();
        return name;
    }

    ExprPtr filterExpr(ExprPtr e)
    {
        Nest chain(*this, 0);
        while (true) {
            if (isOp("|") || isName("is") || isOp("("))
                chain.link();
            const int line = cur().line;
            if (skipOp("|")) {
                auto f = std::make_shared<Expr>();
                f->kind = Expr::Kind::Filter;
                f->line = line;
                f->name = dottedName();
                f->args.push_back(e);
                if (isOp("("))
                    arguments(*f);
                e = f;
            } else if (isName("is")) {
                next();
                auto t = std::make_shared<Expr>();
                t->kind = Expr::Kind::Test;
                t->line = line;
                t->negated = skipName("not");
                t->name = dottedName();
                t->args.push_back(e);
                if (isOp("(")) {
                    arguments(*t);
                } else if ((cur().type == T::Name || cur().type == T::String ||
                            cur().type == T::Int || cur().type == T::Float || isOp("[") ||
                            isOp("{")) &&
                           !isName("else") && !isName("or") && !isName("and")) {
                    if (isName("is"))
                        fail(QStringLiteral("you cannot chain multiple tests with 'is'"));
                    t->args.push_back(postfix(primary()));
                }
                e = t;
            } else if (isOp("(")) {
                e = call(e);
            } else {
                return e;
            }
        }
    }

    const std::vector<Token>& m_tokens;
    size_t m_pos = 0;
    int m_depth = 0;
};

} // namespace

Body parseTemplate(const std::vector<Token>& tokens)
{
    return Parser(tokens).run();
}

} // namespace kvl::jinja
