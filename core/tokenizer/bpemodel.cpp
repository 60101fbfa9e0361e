#include "tokenizer/bpemodel.h"

#include <cstddef>
#include <queue>

namespace kvl {

bool BpeModel::addMerge(int left, int right, int merged)
{
    return m_merges.emplace(key(left, right), Rule{int(m_merges.size()), merged}).second;
}

void BpeModel::merge(std::vector<Symbol>& symbols) const
{
    const int n = int(symbols.size());
    if (n < 2 || m_merges.empty())
        return;
    std::vector<int> prev(static_cast<size_t>(n));
    std::vector<int> next(static_cast<size_t>(n));
    std::vector<char> alive(size_t(n), 1);
    for (int i = 0; i < n; ++i) {
        prev[size_t(i)] = i - 1;
        next[size_t(i)] = i + 1 < n ? i + 1 : -1;
    }
    struct Candidate
    {
        int rank;
        int pos;
        int merged;
        bool operator>(const Candidate& o) const
        {
            return rank != o.rank ? rank > o.rank : pos > o.pos;
        }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    auto consider = [&](int pos) {
        const int nx = next[size_t(pos)];
        if (nx < 0)
            return;
        const auto it = m_merges.find(key(symbols[size_t(pos)].id, symbols[size_t(nx)].id));
        if (it != m_merges.end())
            queue.push({it->second.rank, pos, it->second.merged});
    };
    for (int i = 0; i + 1 < n; ++i)
        consider(i);

    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        const int pos = top.pos;
        if (!alive[size_t(pos)])
            continue;
        const int nx = next[size_t(pos)];
        if (nx < 0)
            continue;
        // Skip candidates made stale by an earlier merge.
        const auto it = m_merges.find(key(symbols[size_t(pos)].id, symbols[size_t(nx)].id));
        if (it == m_merges.end() || it->second.rank != top.rank || it->second.merged != top.merged)
            continue;
        symbols[size_t(pos)].id = top.merged;
        symbols[size_t(pos)].end = symbols[size_t(nx)].end;
        alive[size_t(nx)] = 0;
        next[size_t(pos)] = next[size_t(nx)];
        if (next[size_t(pos)] >= 0)
            prev[size_t(next[size_t(pos)])] = pos;
        if (prev[size_t(pos)] >= 0)
            consider(prev[size_t(pos)]);
        consider(pos);
    }
    std::vector<Symbol> out;
    out.reserve(size_t(n));
    for (int i = 0; i >= 0; i = next[size_t(i)])
        out.push_back(symbols[size_t(i)]);
    symbols = std::move(out);
}

} // namespace kvl
