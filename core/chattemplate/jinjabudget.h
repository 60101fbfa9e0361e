#pragma once

#include <QString>
#include <QtGlobal>

// The accounting behind chattemplate/jinjalimits.h. A rendering installs a RenderBudget
// on its thread; the renderer and the builtins charge it as they work, so a loop in a
// filter (unique, join, ==) costs what it does wherever it runs. Past a limit, a
// kvl::Error names the template line being evaluated and the limit.
namespace kvl::jinja {

class RenderBudget
{
  public:
    RenderBudget();  // becomes this thread's current budget
    ~RenderBudget(); // restores the one before
    RenderBudget(const RenderBudget&) = delete;
    RenderBudget& operator=(const RenderBudget&) = delete;

    static RenderBudget* current(); // null outside a rendering

    void setLine(int line) { m_line = line; }
    int line() const { return m_line; }
    void chargeWork(qint64 steps);
    void chargeLoopIteration();
    [[noreturn]] void exceeded(const QString& what) const;

  private:
    RenderBudget* m_previous = nullptr;
    int m_line = 0;
    qint64 m_work = 0;
    qint64 m_iterations = 0;
};

// These hold with or without a rendering in progress; work is only counted within one.
void chargeWork(qint64 steps);
// A string of `length` UTF-16 units about to be built: refused past kMaxTextLength,
// charged per kCharsPerStep otherwise.
void chargeText(qint64 length);
// A list of `items` about to be built: refused past kMaxListItems, charged per item.
void chargeItems(qint64 items);
// One item appended to a list growing item by item, now `items` long.
void chargeAppend(qint64 items);

// Held while a walk over a value (printing, comparing, dumping) descends one level:
// past kMaxValueDepth levels, or into a namespace that holds itself, an error.
class ValueNesting
{
  public:
    ValueNesting();
    ~ValueNesting();
    ValueNesting(const ValueNesting&) = delete;
    ValueNesting& operator=(const ValueNesting&) = delete;
};

} // namespace kvl::jinja
