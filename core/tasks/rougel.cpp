#include "tasks/rougel.h"

#include <algorithm>
#include <vector>

namespace kvl {

QStringList wordTokens(const QString& text)
{
    QStringList tokens;
    QString current;
    for (QChar c : text) {
        if (c.isLetterOrNumber()) {
            current += c;
        } else if (!current.isEmpty()) {
            tokens << current.toCaseFolded();
            current.clear();
        }
    }
    if (!current.isEmpty())
        tokens << current.toCaseFolded();
    return tokens;
}

int lcsLength(const QStringList& a, const QStringList& b)
{
    // One row of the classic DP table: O(|a| |b|) time, O(|b|) memory.
    std::vector<int> row(size_t(b.size()) + 1, 0);
    for (const QString& x : a) {
        int diagonal = 0;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int above = row[size_t(j)];
            row[size_t(j)] = x == b.at(j - 1) ? diagonal + 1 : std::max(above, row[size_t(j - 1)]);
            diagonal = above;
        }
    }
    return row.back();
}

double rougeLRecall(const QString& reference, const QString& response)
{
    const QStringList ref = wordTokens(reference);
    if (ref.isEmpty())
        return 0.0;
    return double(lcsLength(ref, wordTokens(response))) / double(ref.size());
}

} // namespace kvl
