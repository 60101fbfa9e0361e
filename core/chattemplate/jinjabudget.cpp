#include "chattemplate/jinjabudget.h"

#include "chattemplate/jinjaerror.h"
#include "chattemplate/jinjalimits.h"
#include "common/error.h"

namespace kvl::jinja {
namespace {

thread_local RenderBudget* t_current = nullptr;
thread_local int t_valueDepth = 0;

[[noreturn]] void exceed(const QString& what)
{
    if (const RenderBudget* b = RenderBudget::current())
        b->exceeded(what);
    throw Error(what);
}

[[noreturn]] void tooManyItems(qint64 items)
{
    exceed(
        QStringLiteral("the template builds a list of %1 items, past %2 (KVLens's limit on a chat "
                       "template's lists)")
            .arg(items)
            .arg(kMaxListItems));
}

} // namespace

RenderBudget::RenderBudget() : m_previous(t_current)
{
    t_current = this;
}

RenderBudget::~RenderBudget()
{
    t_current = m_previous;
}

RenderBudget* RenderBudget::current()
{
    return t_current;
}

void RenderBudget::exceeded(const QString& what) const
{
    fail(m_line, what);
}

void RenderBudget::chargeWork(qint64 steps)
{
    m_work += steps;
    if (m_work > kMaxWork)
        exceeded(QStringLiteral("the template runs past %1 steps (KVLens's limit on a "
                                "chat template's work)")
                     .arg(kMaxWork));
}

void RenderBudget::chargeLoopIteration()
{
    if (++m_iterations > kMaxLoopIterations)
        exceeded(QStringLiteral("the template's loops run past %1 iterations (KVLens's limit "
                                "on a chat template's loops)")
                     .arg(kMaxLoopIterations));
    chargeWork(1);
}

void chargeWork(qint64 steps)
{
    if (RenderBudget* b = RenderBudget::current())
        b->chargeWork(steps);
}

void chargeText(qint64 length)
{
    if (length > kMaxTextLength)
        exceed(QStringLiteral(
                   "the template builds a string of %1 characters, past %2 (KVLens's limit on "
                   "a chat template's text)")
                   .arg(length)
                   .arg(kMaxTextLength));
    chargeWork(length / kCharsPerStep);
}

void chargeItems(qint64 items)
{
    if (items > kMaxListItems)
        tooManyItems(items);
    chargeWork(items);
}

void chargeAppend(qint64 items)
{
    if (items > kMaxListItems)
        tooManyItems(items);
    chargeWork(1);
}

ValueNesting::ValueNesting()
{
    if (++t_valueDepth > kMaxValueDepth) {
        --t_valueDepth;
        exceed(
            QStringLiteral("the template holds values nested deeper than %1 levels (or a namespace "
                           "that holds itself; KVLens's limit on a chat template's values)")
                .arg(kMaxValueDepth));
    }
}

ValueNesting::~ValueNesting()
{
    --t_valueDepth;
}

} // namespace kvl::jinja
