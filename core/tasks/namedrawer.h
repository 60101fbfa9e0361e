#pragma once

#include <QSet>
#include <QString>

namespace kvl {

class Rng;

// Draws distinct person names ("First Last") for one sample, and near-miss names that
// share the first or the last name with a given one: the look-alike keys retrieval
// distractors need.
class NameDrawer
{
  public:
    explicit NameDrawer(Rng& rng);

    QString fresh();
    // A new name sharing the first or the last name with `name` (falls back to a fresh
    // name when every such combination is taken).
    QString nearMiss(const QString& name);

  private:
    bool take(const QString& name);

    Rng& m_rng;
    QSet<QString> m_used;
};

} // namespace kvl
