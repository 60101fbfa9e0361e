#pragma once

#include "chattemplate/jinjaast.h"
#include "chattemplate/jinjabudget.h"
#include "chattemplate/jinjavalue.h"

#include <QString>
#include <memory>
#include <utility>
#include <unordered_set>
#include <vector>

namespace kvl::jinja {

// Renders a parsed template against a context of variables, with Jinja's scoping: a
// for loop's body is a new scope each iteration (what it sets is gone after the loop,
// hence namespace()), an if is not a scope, a macro call is a scope over the template's.
// Errors (undefined values used in arithmetic, type errors, raise_exception) throw
// kvl::Error naming the template line. A rendering stays within chattemplate/jinjalimits.h:
// past a limit (recursion, loops, text, work), a kvl::Error names the line and the limit.
class Renderer
{
  public:
    explicit Renderer(const Dict& context);
    QString render(const Body& body);

  private:
    enum class Flow
    {
        Normal,
        Break,
        Continue
    };
    using Scope = std::shared_ptr<Dict>;
    class Descent; // one level of evaluation: depth, line and work accounted

    Flow exec(const Body& body, QString& out);
    Flow execOne(const Stmt& s, QString& out);
    void execFor(const Stmt& s, QString& out);
    void assign(const Stmt& s, const Value& v);
    void append(QString& out, const QString& text); // within the text limit
    Value makeMacro(const Stmt& s);

    Value eval(const Expr& e);
    Value evalBinary(const Expr& e);
    bool compare(const QString& op, const Value& a, const Value& b, int line);
    Value call(const Expr& e);
    // A call's or filter's arguments after the first of e.args (the callee or the
    // filtered value), evaluated in order, and its keyword arguments.
    std::pair<List, KwArgs> evalArguments(const Expr& e);
    Value lookup(const QString& name) const;

    std::vector<Scope> m_scopes;      // innermost last; [0] holds the globals and the context
    RenderBudget* m_budget = nullptr; // the rendering's, set while render() runs
    // Namespaces the template assigned into: a namespace can be made to hold itself
    // (`{% set ns.me = ns %}`), a reference cycle no shared_ptr frees. render() empties
    // them when it ends, since no value of a rendering outlives it.
    // Held (each once) until then, so that one is never mistaken for another at its address.
    std::unordered_set<std::shared_ptr<Dict>> m_namespacesWritten;
    void releaseNamespaces();
    int m_evalDepth = 0;
    int m_callDepth = 0;
};

} // namespace kvl::jinja
