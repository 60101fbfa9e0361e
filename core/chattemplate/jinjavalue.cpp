#include "chattemplate/jinjavalue.h"

#include "chattemplate/jinjabudget.h"

#include <utility>

namespace kvl::jinja {

const Value* Dict::find(const QString& key) const
{
    for (const auto& [k, v] : items)
        if (k == key)
            return &v;
    return nullptr;
}

void Dict::set(const QString& key, Value value)
{
    for (auto& [k, v] : items)
        if (k == key) {
            v = std::move(value);
            return;
        }
    items.emplace_back(key, std::move(value));
}

namespace {

// Containers whose last reference a ~Value dropped, waiting to be destroyed by the
// outermost ~Value on this thread: their items' destructors add to it instead of
// recursing, so destruction takes constant stack whatever the nesting.
struct Graveyard
{
    std::vector<std::shared_ptr<void>> pending;
    bool draining = false;
    ~Graveyard();
};

// Trivially destructible, so it stays readable after t_graveyard is gone: a Value that
// outlives it (a static one, destroyed at exit after the thread's storage) then frees
// its containers the ordinary way instead of queueing them in a destroyed vector.
thread_local bool t_graveyardGone = false;
thread_local Graveyard t_graveyard;

Graveyard::~Graveyard()
{
    t_graveyardGone = true; // before `pending` is destroyed
}

} // namespace

Value::~Value()
{
    if ((!list && !dict && !fn) || t_graveyardGone)
        return;
    Graveyard& g = t_graveyard;
    if (list)
        g.pending.push_back(std::move(list));
    if (dict)
        g.pending.push_back(std::move(dict));
    if (fn)
        g.pending.push_back(std::move(fn));
    if (g.draining)
        return;
    g.draining = true;
    while (!g.pending.empty()) {
        std::shared_ptr<void> last = std::move(g.pending.back());
        g.pending.pop_back();
        last.reset(); // when it was the last reference, its items queue their containers
    }
    g.draining = false;
}

Value Value::undefined(const QString& hint)
{
    Value v;
    v.s = hint;
    return v;
}

Value Value::none()
{
    Value v;
    v.type = Type::None;
    return v;
}

Value Value::boolean(bool x)
{
    Value v;
    v.type = Type::Bool;
    v.b = x;
    return v;
}

Value Value::integer(qint64 x)
{
    Value v;
    v.type = Type::Int;
    v.i = x;
    return v;
}

Value Value::number(double x)
{
    Value v;
    v.type = Type::Float;
    v.f = x;
    return v;
}

Value Value::string(const QString& x)
{
    Value v;
    v.type = Type::String;
    v.s = x;
    return v;
}

Value Value::makeList(jinja::List items, bool isTuple)
{
    Value v;
    v.type = Type::List;
    v.list = std::make_shared<jinja::List>(std::move(items));
    v.tuple = isTuple;
    return v;
}

Value Value::makeDict(jinja::Dict d)
{
    Value v;
    v.type = Type::Dict;
    v.dict = std::make_shared<jinja::Dict>(std::move(d));
    return v;
}

Value Value::makeNamespace(jinja::Dict d)
{
    Value v = makeDict(std::move(d));
    v.type = Type::Namespace;
    return v;
}

Value Value::function(const QString& name,
                      std::function<Value(const jinja::List&, const KwArgs&)> call)
{
    Value v;
    v.type = Type::Callable;
    v.fn = std::make_shared<jinja::Callable>(jinja::Callable{name, std::move(call)});
    return v;
}

bool Value::truthy() const
{
    switch (type) {
    case Type::Undefined:
    case Type::None:
        return false;
    case Type::Bool:
        return b;
    case Type::Int:
        return i != 0;
    case Type::Float:
        return f != 0;
    case Type::String:
        return !s.isEmpty();
    case Type::List:
        return !list->empty();
    case Type::Dict:
        return !dict->items.empty();
    case Type::Namespace:
    case Type::Callable:
        return true;
    }
    return false;
}

QString Value::typeName() const
{
    switch (type) {
    case Type::Undefined:
        return QStringLiteral("Undefined");
    case Type::None:
        return QStringLiteral("NoneType");
    case Type::Bool:
        return QStringLiteral("bool");
    case Type::Int:
        return QStringLiteral("int");
    case Type::Float:
        return QStringLiteral("float");
    case Type::String:
        return QStringLiteral("str");
    case Type::List:
        return tuple ? QStringLiteral("tuple") : QStringLiteral("list");
    case Type::Dict:
        return QStringLiteral("dict");
    case Type::Namespace:
        return QStringLiteral("Namespace");
    case Type::Callable:
        return QStringLiteral("function");
    }
    return {};
}

bool equals(const Value& a, const Value& b)
{
    chargeWork(1);
    if (a.isNumber() && b.isNumber()) {
        if (a.type != Value::Type::Float && b.type != Value::Type::Float)
            return (a.type == Value::Type::Bool ? qint64(a.b) : a.i) ==
                   (b.type == Value::Type::Bool ? qint64(b.b) : b.i);
        return a.toDouble() == b.toDouble();
    }
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case Value::Type::Undefined:
    case Value::Type::None:
        return true;
    case Value::Type::String:
        return a.s == b.s;
    case Value::Type::List: {
        if (a.tuple != b.tuple || a.list->size() != b.list->size())
            return false;
        const ValueNesting nesting;
        for (size_t k = 0; k < a.list->size(); ++k)
            if (!equals((*a.list)[k], (*b.list)[k]))
                return false;
        return true;
    }
    case Value::Type::Dict: {
        if (a.dict->items.size() != b.dict->items.size())
            return false;
        const ValueNesting nesting;
        for (const auto& [k, v] : a.dict->items) {
            const Value* other = b.dict->find(k);
            if (!other || !equals(v, *other))
                return false;
        }
        return true;
    }
    default:
        return a.dict == b.dict && a.fn == b.fn;
    }
}

} // namespace kvl::jinja
