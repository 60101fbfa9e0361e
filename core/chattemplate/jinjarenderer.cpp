#include "chattemplate/jinjarenderer.h"

#include "chattemplate/jinjabuiltins.h"
#include "chattemplate/jinjalimits.h"
#include "chattemplate/jinjapython.h"
#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl::jinja {
namespace {

[[noreturn]] void undefinedError(const Value& v, int line)
{
    fail(line, v.s.isEmpty() ? QStringLiteral("an undefined value was used") : v.s);
}

// Builtins throw plain messages; the template line is added here, once.
template <typename Fn> Value withLine(int line, Fn fn)
{
    try {
        return fn();
    } catch (const Error& err) {
        const QString m = err.message();
        if (m.startsWith(QLatin1String("chat template line")) ||
            m.startsWith(QLatin1String("the chat template")))
            throw;
        fail(line, m);
    }
}

qint64 asInt(const Value& v)
{
    return v.type == Value::Type::Bool ? qint64(v.b) : v.i;
}

bool isIntLike(const Value& v)
{
    return v.type == Value::Type::Int || v.type == Value::Type::Bool;
}

// Python's integers are unbounded; these are 64 bits, and a result past them is an
// error rather than a wrapped (undefined) value.
[[noreturn]] void overflow(int line)
{
    fail(line, QStringLiteral("integer overflow (a template's integers are 64-bit here)"));
}

qint64 checkedArithmetic(char op, qint64 a, qint64 b, int line)
{
    qint64 r = 0;
    const bool overflowed = op == '+'   ? __builtin_add_overflow(a, b, &r)
                            : op == '-' ? __builtin_sub_overflow(a, b, &r)
                                        : __builtin_mul_overflow(a, b, &r);
    if (overflowed)
        overflow(line);
    return r;
}

qint64 power(qint64 base, qint64 exponent, int line)
{
    // By squaring: 2 ** 10000000000 overflows in a few steps instead of looping.
    qint64 result = 1;
    while (exponent > 0) {
        if (exponent & 1)
            result = checkedArithmetic('*', result, base, line);
        exponent >>= 1;
        // 1 and -1 (and 0) square to themselves; anything else overflows in 6 squarings.
        if (exponent > 0)
            base = checkedArithmetic('*', base, base, line);
    }
    return result;
}

qint64 saturatedProduct(qint64 a, qint64 b)
{
    qint64 r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<qint64>::max() : r;
}

// Python's rich comparison order for <, <=, >, >= on numbers, strings and lists.
int order(const Value& a, const Value& b, int line, const QString& op)
{
    if (a.isNumber() && b.isNumber()) {
        if (isIntLike(a) && isIntLike(b))
            return asInt(a) < asInt(b) ? -1 : asInt(a) > asInt(b) ? 1 : 0;
        return a.toDouble() < b.toDouble() ? -1 : a.toDouble() > b.toDouble() ? 1 : 0;
    }
    if (a.isString() && b.isString()) {
        const std::u32string x = py::codePoints(a.s), y = py::codePoints(b.s);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a.isList() && b.isList()) {
        const ValueNesting nesting;
        for (size_t k = 0; k < a.list->size() && k < b.list->size(); ++k)
            if (!equals((*a.list)[k], (*b.list)[k]))
                return order((*a.list)[k], (*b.list)[k], line, op);
        return a.list->size() < b.list->size() ? -1 : a.list->size() > b.list->size() ? 1 : 0;
    }
    if (a.isUndefined())
        undefinedError(a, line);
    if (b.isUndefined())
        undefinedError(b, line);
    fail(line, QStringLiteral("'%1' not supported between instances of '%2' and '%3'")
                   .arg(op, a.typeName(), b.typeName()));
}

bool contains(const Value& container, const Value& v, int line)
{
    if (container.isString()) {
        if (!v.isString())
            fail(line, QStringLiteral("'in <string>' requires string as left operand, not %1")
                           .arg(v.typeName()));
        return container.s.contains(v.s);
    }
    if (container.isDict() || container.type == Value::Type::Namespace)
        return v.isString() && container.dict->find(v.s);
    if (container.isList() || container.isUndefined()) {
        for (const Value& x : iterate(container, line))
            if (equals(x, v))
                return true;
        return false;
    }
    fail(line, QStringLiteral("argument of type '%1' is not iterable").arg(container.typeName()));
}

Value repeat(const Value& seq, qint64 n)
{
    if (seq.isString()) {
        // Sized before it is built: 'a' * 10000000000 is refused, not attempted.
        chargeText(saturatedProduct(seq.s.size(), n));
        return Value::string(seq.s.repeated(qsizetype(std::max<qint64>(0, n))));
    }
    chargeItems(saturatedProduct(qint64(seq.list->size()), n));
    List out;
    for (qint64 k = 0; k < n; ++k)
        out.insert(out.end(), seq.list->begin(), seq.list->end());
    return Value::makeList(std::move(out), seq.tuple);
}

} // namespace

// Held while one expression or statement is evaluated: bounds the renderer's recursion
// (and so its stack), names the line in an error raised below it, and counts a step.
class Renderer::Descent
{
  public:
    Descent(Renderer& r, int line) : m_r(r), m_savedLine(r.m_budget->line())
    {
        r.m_budget->setLine(line);
        if (++r.m_evalDepth > kMaxEvalDepth) {
            --r.m_evalDepth;
            r.m_budget->exceeded(
                QStringLiteral("expressions and macro calls nested deeper than %1 levels "
                               "(KVLens's limit on a chat template's recursion)")
                    .arg(kMaxEvalDepth));
        }
        r.m_budget->chargeWork(1);
    }
    ~Descent()
    {
        --m_r.m_evalDepth;
        m_r.m_budget->setLine(m_savedLine);
    }
    Descent(const Descent&) = delete;
    Descent& operator=(const Descent&) = delete;

  private:
    Renderer& m_r;
    int m_savedLine;
};

Renderer::Renderer(const Dict& context)
{
    m_scopes.push_back(std::make_shared<Dict>(context));
}

void Renderer::releaseNamespaces()
{
    for (const std::shared_ptr<Dict>& ns : m_namespacesWritten)
        Dict().items.swap(ns->items); // the items die with the temporary, outside *ns
    m_namespacesWritten.clear();
}

QString Renderer::render(const Body& body)
{
    RenderBudget budget;
    m_budget = &budget;
    QString out;
    try {
        exec(body, out);
    } catch (...) {
        m_budget = nullptr;
        releaseNamespaces();
        throw;
    }
    m_budget = nullptr;
    releaseNamespaces();
    return out;
}

void Renderer::append(QString& out, const QString& text)
{
    chargeText(out.size() + text.size());
    out += text;
}

Renderer::Flow Renderer::exec(const Body& body, QString& out)
{
    for (const StmtPtr& s : body) {
        const Flow f = execOne(*s, out);
        if (f != Flow::Normal)
            return f;
    }
    return Flow::Normal;
}

Renderer::Flow Renderer::execOne(const Stmt& s, QString& out)
{
    const Descent descent(*this, s.line);
    switch (s.kind) {
    case Stmt::Kind::Text:
        append(out, s.text);
        return Flow::Normal;
    case Stmt::Kind::Output:
        append(out, py::str(eval(*s.expr)));
        return Flow::Normal;
    case Stmt::Kind::If:
        return exec(eval(*s.expr).truthy() ? s.body : s.elseBody, out);
    case Stmt::Kind::For:
        execFor(s, out);
        return Flow::Normal;
    case Stmt::Kind::Set:
        assign(s, eval(*s.expr));
        return Flow::Normal;
    case Stmt::Kind::SetBlock: {
        QString captured;
        exec(s.body, captured);
        assign(s, Value::string(captured));
        return Flow::Normal;
    }
    case Stmt::Kind::Macro:
        m_scopes.back()->set(s.text, makeMacro(s));
        return Flow::Normal;
    case Stmt::Kind::Break:
        return Flow::Break;
    case Stmt::Kind::Continue:
        return Flow::Continue;
    case Stmt::Kind::Generation:
        return exec(s.body, out);
    }
    return Flow::Normal;
}

void Renderer::assign(const Stmt& s, const Value& v)
{
    if (!s.attr.isEmpty()) {
        const Value ns = lookup(s.targets[0]);
        if (ns.type != Value::Type::Namespace)
            fail(s.line, QStringLiteral("cannot assign attribute on non-namespace object '%1'")
                             .arg(s.targets[0]));
        ns.dict->set(s.attr, v);
        m_namespacesWritten.insert(ns.dict);
        return;
    }
    if (!s.unpack) {
        m_scopes.back()->set(s.targets[0], v);
        return;
    }
    const List items = iterate(v, s.line);
    if (items.size() != s.targets.size())
        fail(s.line, QStringLiteral("cannot unpack %1 values into %2 names")
                         .arg(items.size())
                         .arg(s.targets.size()));
    for (size_t k = 0; k < items.size(); ++k)
        m_scopes.back()->set(s.targets[k], items[k]);
}

void Renderer::execFor(const Stmt& s, QString& out)
{
    const Value iterable = eval(*s.expr);
    if (iterable.isNone() || iterable.isNumber())
        fail(s.line, QStringLiteral("'%1' object is not iterable").arg(iterable.typeName()));
    List items = iterate(iterable, s.line);
    if (s.filter) {
        // The loop filter sees each item bound to the targets, in a scope of its own.
        List kept;
        for (const Value& x : items) {
            m_budget->chargeLoopIteration();
            m_scopes.push_back(std::make_shared<Dict>());
            Stmt bind;
            bind.targets = s.targets;
            bind.unpack = s.unpack;
            bind.line = s.line;
            assign(bind, x);
            const bool keep = eval(*s.filter).truthy();
            m_scopes.pop_back();
            if (keep)
                kept.push_back(x);
        }
        items = std::move(kept);
    }
    if (items.empty()) {
        exec(s.elseBody, out);
        return;
    }
    const qint64 n = qint64(items.size());
    for (qint64 k = 0; k < n; ++k) {
        m_budget->chargeLoopIteration();
        m_scopes.push_back(std::make_shared<Dict>());
        Dict loop;
        loop.set(QStringLiteral("index"), Value::integer(k + 1));
        loop.set(QStringLiteral("index0"), Value::integer(k));
        loop.set(QStringLiteral("revindex"), Value::integer(n - k));
        loop.set(QStringLiteral("revindex0"), Value::integer(n - k - 1));
        loop.set(QStringLiteral("first"), Value::boolean(k == 0));
        loop.set(QStringLiteral("last"), Value::boolean(k == n - 1));
        loop.set(QStringLiteral("length"), Value::integer(n));
        loop.set(QStringLiteral("depth"), Value::integer(1));
        loop.set(QStringLiteral("depth0"), Value::integer(0));
        loop.set(QStringLiteral("previtem"),
                 k > 0 ? items[size_t(k - 1)]
                       : Value::undefined(QStringLiteral("'previtem' is undefined")));
        loop.set(QStringLiteral("nextitem"),
                 k + 1 < n ? items[size_t(k + 1)]
                           : Value::undefined(QStringLiteral("'nextitem' is undefined")));
        m_scopes.back()->set(QStringLiteral("loop"), Value::makeDict(std::move(loop)));
        Stmt bind;
        bind.targets = s.targets;
        bind.unpack = s.unpack;
        bind.line = s.line;
        assign(bind, items[size_t(k)]);
        const Flow f = exec(s.body, out);
        m_scopes.pop_back();
        if (f == Flow::Break)
            break;
    }
}

Value Renderer::makeMacro(const Stmt& s)
{
    // The macro body runs over the template's top-level scope, as Jinja's macros see
    // the template's globals and context.
    const Stmt* def = &s;
    return Value::function(s.text, [this, def](const List& args, const KwArgs& kwargs) {
        if (args.size() > def->params.size())
            fail(def->line, QStringLiteral("macro '%1' takes not more than %2 arguments")
                                .arg(def->text)
                                .arg(def->params.size()));
        if (m_callDepth >= kMaxCallDepth)
            m_budget->exceeded(QStringLiteral("macro '%1' is called %2 levels deep (KVLens's "
                                              "limit on a chat template's macro recursion is %3)")
                                   .arg(def->text)
                                   .arg(m_callDepth + 1)
                                   .arg(kMaxCallDepth));
        auto scope = std::make_shared<Dict>();
        std::vector<Scope> saved = std::move(m_scopes);
        m_scopes = {saved.front(), scope};
        ++m_callDepth;
        try {
            for (size_t k = 0; k < def->params.size(); ++k) {
                const QString& p = def->params[k];
                Value v = Value::undefined(QStringLiteral("'%1' is undefined").arg(p));
                bool given = false;
                if (k < args.size()) {
                    v = args[k];
                    given = true;
                }
                for (const auto& [key, x] : kwargs)
                    if (key == p) {
                        v = x;
                        given = true;
                    }
                if (!given && def->defaults[k])
                    v = eval(*def->defaults[k]);
                scope->set(p, v);
            }
            for (const auto& [key, x] : kwargs)
                if (std::find(def->params.begin(), def->params.end(), key) == def->params.end())
                    fail(def->line, QStringLiteral("macro '%1' has no argument named '%2'")
                                        .arg(def->text, key));
            QString out;
            exec(def->body, out);
            m_scopes = std::move(saved);
            --m_callDepth;
            return Value::string(out);
        } catch (...) {
            m_scopes = std::move(saved);
            --m_callDepth;
            throw;
        }
    });
}

Value Renderer::lookup(const QString& name) const
{
    for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it)
        if (const Value* v = (*it)->find(name))
            return *v;
    return Value::undefined(QStringLiteral("'%1' is undefined").arg(name));
}

Value Renderer::eval(const Expr& e)
{
    const Descent descent(*this, e.line);
    switch (e.kind) {
    case Expr::Kind::Const:
        return e.constant;
    case Expr::Kind::Name:
        return lookup(e.name);
    case Expr::Kind::List: {
        List items;
        chargeItems(qint64(e.args.size()));
        for (const ExprPtr& x : e.args)
            items.push_back(eval(*x));
        return Value::makeList(std::move(items), e.tuple);
    }
    case Expr::Kind::Dict: {
        Dict d;
        for (size_t k = 0; k + 1 < e.args.size(); k += 2) {
            const Value key = eval(*e.args[k]);
            if (!key.isString())
                fail(e.line, QStringLiteral("only string keys are supported in dict literals"));
            d.set(key.s, eval(*e.args[k + 1]));
        }
        return Value::makeDict(std::move(d));
    }
    case Expr::Kind::GetAttr:
        return attribute(eval(*e.args[0]), e.name, e.line);
    case Expr::Kind::GetItem:
        return item(eval(*e.args[0]), eval(*e.args[1]), e.line);
    case Expr::Kind::Slice: {
        auto part = [&](size_t k) { return e.args[k] ? eval(*e.args[k]) : Value::none(); };
        return slice(eval(*e.args[0]), part(1), part(2), part(3), e.line);
    }
    case Expr::Kind::Call:
        return call(e);
    case Expr::Kind::Filter: {
        const Value subject = eval(*e.args[0]);
        const std::pair<List, KwArgs> arguments = evalArguments(e);
        const List& args = arguments.first;
        const KwArgs& kwargs = arguments.second;
        return withLine(e.line, [&] {
            return applyFilter(e.name, subject, CallArgs{args, kwargs, e.name}, e.line,
                               [line = e.line](const QString& name, const Value& v, const List& a) {
                                   return applyTest(name, v, a, line);
                               });
        });
    }
    case Expr::Kind::Test: {
        const Value subject = eval(*e.args[0]);
        List args;
        for (size_t k = 1; k < e.args.size(); ++k)
            args.push_back(eval(*e.args[k]));
        if (!e.kwargs.empty())
            fail(e.line, QStringLiteral("keyword arguments to tests are not supported"));
        return withLine(e.line, [&] {
            return Value::boolean(applyTest(e.name, subject, args, e.line) != e.negated);
        });
    }
    case Expr::Kind::Not:
        return Value::boolean(!eval(*e.args[0]).truthy());
    case Expr::Kind::Neg:
    case Expr::Kind::Pos: {
        const Value v = eval(*e.args[0]);
        const bool neg = e.kind == Expr::Kind::Neg;
        if (isIntLike(v)) {
            if (neg && asInt(v) == std::numeric_limits<qint64>::min())
                overflow(e.line);
            return Value::integer(neg ? -asInt(v) : asInt(v));
        }
        if (v.type == Value::Type::Float)
            return Value::number(neg ? -v.f : v.f);
        if (v.isUndefined())
            undefinedError(v, e.line);
        fail(e.line, QStringLiteral("bad operand type for unary %1: '%2'")
                         .arg(neg ? QLatin1Char('-') : QLatin1Char('+'))
                         .arg(v.typeName()));
    }
    case Expr::Kind::Binary:
        return evalBinary(e);
    case Expr::Kind::Compare: {
        Value left = eval(*e.args[0]);
        for (size_t k = 0; k < e.ops.size(); ++k) {
            const Value right = eval(*e.args[k + 1]);
            if (!compare(e.ops[k], left, right, e.line))
                return Value::boolean(false);
            left = right;
        }
        return Value::boolean(true);
    }
    case Expr::Kind::And: {
        const Value a = eval(*e.args[0]);
        return a.truthy() ? eval(*e.args[1]) : a;
    }
    case Expr::Kind::Or: {
        const Value a = eval(*e.args[0]);
        return a.truthy() ? a : eval(*e.args[1]);
    }
    case Expr::Kind::CondExpr:
        if (eval(*e.args[0]).truthy())
            return eval(*e.args[1]);
        return e.args[2] ? eval(*e.args[2]) : Value::undefined();
    }
    return {};
}

bool Renderer::compare(const QString& op, const Value& a, const Value& b, int line)
{
    if (op == QLatin1String("=="))
        return equals(a, b);
    if (op == QLatin1String("!="))
        return !equals(a, b);
    if (op == QLatin1String("in"))
        return contains(b, a, line);
    if (op == QLatin1String("notin"))
        return !contains(b, a, line);
    const int c = order(a, b, line, op);
    if (op == QLatin1String("<"))
        return c < 0;
    if (op == QLatin1String("<="))
        return c <= 0;
    if (op == QLatin1String(">"))
        return c > 0;
    return c >= 0;
}

Value Renderer::evalBinary(const Expr& e)
{
    const Value a = eval(*e.args[0]);
    const Value b = eval(*e.args[1]);
    const QString& op = e.name;
    if (op == QLatin1String("~")) {
        const QString x = py::str(a), y = py::str(b);
        chargeText(x.size() + y.size());
        return Value::string(x + y);
    }
    if (a.isUndefined())
        undefinedError(a, e.line);
    if (b.isUndefined())
        undefinedError(b, e.line);
    const auto unsupported = [&]() {
        fail(e.line, QStringLiteral("unsupported operand type(s) for %1: '%2' and '%3'")
                         .arg(op, a.typeName(), b.typeName()));
    };
    if (op == QLatin1String("+")) {
        if (a.isString() && b.isString()) {
            chargeText(a.s.size() + b.s.size());
            return Value::string(a.s + b.s);
        }
        if (a.isList() && b.isList() && a.tuple == b.tuple) {
            chargeItems(qint64(a.list->size() + b.list->size()));
            List out = *a.list;
            out.insert(out.end(), b.list->begin(), b.list->end());
            return Value::makeList(std::move(out), a.tuple);
        }
    }
    if (op == QLatin1String("*")) {
        if ((a.isString() || a.isList()) && isIntLike(b))
            return repeat(a, asInt(b));
        if (isIntLike(a) && (b.isString() || b.isList()))
            return repeat(b, asInt(a));
    }
    if (op == QLatin1String("%") && a.isString())
        fail(e.line, QStringLiteral("printf-style string formatting ('%') is not supported"));
    if (!a.isNumber() || !b.isNumber())
        unsupported();
    const bool ints = isIntLike(a) && isIntLike(b);
    const double x = a.toDouble(), y = b.toDouble();
    if (op == QLatin1String("+"))
        return ints ? Value::integer(checkedArithmetic('+', asInt(a), asInt(b), e.line))
                    : Value::number(x + y);
    if (op == QLatin1String("-"))
        return ints ? Value::integer(checkedArithmetic('-', asInt(a), asInt(b), e.line))
                    : Value::number(x - y);
    if (op == QLatin1String("*"))
        return ints ? Value::integer(checkedArithmetic('*', asInt(a), asInt(b), e.line))
                    : Value::number(x * y);
    if (ints && (op == QLatin1String("//") || op == QLatin1String("%")) && asInt(b) == -1 &&
        asInt(a) == std::numeric_limits<qint64>::min())
        overflow(e.line); // the one quotient of two int64 that is not one (and traps)
    if ((op == QLatin1String("/") || op == QLatin1String("//") || op == QLatin1String("%")) &&
        y == 0)
        fail(e.line, QStringLiteral("division by zero"));
    if (op == QLatin1String("/"))
        return Value::number(x / y);
    if (op == QLatin1String("//")) {
        if (ints) {
            const qint64 p = asInt(a), q = asInt(b);
            qint64 r = p / q;
            if ((p % q != 0) && ((p < 0) != (q < 0)))
                --r;
            return Value::integer(r);
        }
        return Value::number(std::floor(x / y));
    }
    if (op == QLatin1String("%")) {
        if (ints) {
            const qint64 q = asInt(b);
            qint64 r = asInt(a) % q;
            if (r != 0 && ((r < 0) != (q < 0)))
                r += q;
            return Value::integer(r);
        }
        double r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0)))
            r += y;
        return Value::number(r);
    }
    if (op == QLatin1String("**")) {
        if (ints && asInt(b) >= 0)
            return Value::integer(power(asInt(a), asInt(b), e.line));
        return Value::number(std::pow(x, y));
    }
    unsupported();
    return {};
}

std::pair<List, KwArgs> Renderer::evalArguments(const Expr& e)
{
    List args;
    for (size_t k = 1; k < e.args.size(); ++k)
        args.push_back(eval(*e.args[k]));
    KwArgs kwargs;
    for (const auto& [key, x] : e.kwargs)
        kwargs.emplace_back(key, eval(*x));
    return {std::move(args), std::move(kwargs)};
}

Value Renderer::call(const Expr& e)
{
    const Value callee = eval(*e.args[0]);
    if (callee.isUndefined()) {
        const Expr& target = *e.args[0];
        if (target.kind == Expr::Kind::Name)
            fail(e.line, QStringLiteral("the function '%1' is not supported (or is undefined)")
                             .arg(target.name));
        undefinedError(callee, e.line);
    }
    if (callee.type != Value::Type::Callable)
        fail(e.line, QStringLiteral("'%1' object is not callable").arg(callee.typeName()));
    const std::pair<List, KwArgs> arguments = evalArguments(e);
    const List& args = arguments.first;
    const KwArgs& kwargs = arguments.second;
    return withLine(e.line, [&] { return callee.fn->call(args, kwargs); });
}

} // namespace kvl::jinja
