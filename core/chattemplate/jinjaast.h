#pragma once

#include "chattemplate/jinjavalue.h"

#include <QString>
#include <memory>
#include <vector>

// The syntax tree of a template: expressions and statements, each with its source line
// for error messages.
namespace kvl::jinja {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr
{
    enum class Kind
    {
        Const,    // constant
        Name,     // name
        List,     // args (tuple when `tuple`)
        Dict,     // args = key, value, key, value, ...
        GetAttr,  // args[0].name
        GetItem,  // args[0][args[1]]
        Slice,    // args[0][args[1]:args[2]:args[3]] (null parts omitted)
        Call,     // args[0](args[1..], kwargs)
        Filter,   // args[0] | name(args[1..], kwargs)
        Test,     // args[0] is [not] name(args[1..])
        Not,      // not args[0]
        Neg,      // -args[0]
        Pos,      // +args[0]
        Binary,   // args[0] name args[1]: + - * / // % ** ~
        Compare,  // args[0] ops[0] args[1] ops[1] args[2] ... (chained)
        And,      // args[0] and args[1]
        Or,       // args[0] or args[1]
        CondExpr, // args[1] if args[0] else args[2] (args[2] null: undefined)
    };
    Kind kind = Kind::Const;
    int line = 0;
    QString name;
    Value constant;
    bool tuple = false;
    bool negated = false;
    std::vector<ExprPtr> args;
    std::vector<std::pair<QString, ExprPtr>> kwargs;
    std::vector<QString> ops;
};

struct Stmt;
using StmtPtr = std::shared_ptr<const Stmt>;
using Body = std::vector<StmtPtr>;

struct Stmt
{
    enum class Kind
    {
        Text,     // text
        Output,   // {{ expr }}
        If,       // if expr: body else elseBody (elif nests an If in elseBody)
        For,      // for targets in expr [if filter]: body else elseBody
        Set,      // set targets = expr, or set targets[0].attr = expr when attr is set
        SetBlock, // set targets[0] %} body {% endset
        Macro,    // macro text(params = defaults): body
        Break,
        Continue,
        Generation, // transformers' {% generation %}: renders its body
    };
    Kind kind = Kind::Text;
    int line = 0;
    QString text;
    QString attr;
    ExprPtr expr;
    ExprPtr filter;
    std::vector<QString> targets;
    bool unpack = false; // targets came as a tuple (a, b)
    Body body;
    Body elseBody;
    std::vector<QString> params;
    std::vector<ExprPtr> defaults; // per param, null when it has none
};

} // namespace kvl::jinja
