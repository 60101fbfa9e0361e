#include "tasks/namedrawer.h"

#include "tasks/lexicon.h"
#include "tasks/rng.h"

namespace kvl {

NameDrawer::NameDrawer(Rng& rng) : m_rng(rng) {}

bool NameDrawer::take(const QString& name)
{
    if (m_used.contains(name))
        return false;
    m_used.insert(name);
    return true;
}

QString NameDrawer::fresh()
{
    const QStringList& first = lexicon::firstNames();
    const QStringList& last = lexicon::lastNames();
    // 1,600 combinations; samples use at most a few hundred, so this ends quickly.
    for (;;) {
        const QString name = first.at(m_rng.below(int(first.size()))) + QLatin1Char(' ') +
                             last.at(m_rng.below(int(last.size())));
        if (take(name))
            return name;
    }
}

QString NameDrawer::nearMiss(const QString& name)
{
    const QString first = name.section(QLatin1Char(' '), 0, 0);
    const QString last = name.section(QLatin1Char(' '), 1);
    for (int attempt = 0; attempt < 64; ++attempt) {
        const bool keepFirst = m_rng.chance(0.5);
        const QStringList& pool = keepFirst ? lexicon::lastNames() : lexicon::firstNames();
        const QString other = pool.at(m_rng.below(int(pool.size())));
        const QString candidate =
            keepFirst ? first + QLatin1Char(' ') + other : other + QLatin1Char(' ') + last;
        if (take(candidate))
            return candidate;
    }
    return fresh();
}

} // namespace kvl
