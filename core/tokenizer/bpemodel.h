#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kvl {

// BPE merges over token ids: each rule (left, right) -> merged has a rank (its
// index in the merges list); lower ranks merge first, ties go to the leftmost pair,
// exactly as HF tokenizers' Word::merge_all.
class BpeModel
{
  public:
    // An initial symbol and the range [begin, end) of units it covers.
    struct Symbol
    {
        int id;
        int begin;
        int end;
    };

    // Appends a rule with the next rank. Returns false if (left, right) already has
    // a rule (the earlier, lower rank is kept).
    bool addMerge(int left, int right, int merged);
    int mergeCount() const { return int(m_merges.size()); }
    void reserve(int merges) { m_merges.reserve(std::size_t(merges)); }

    // Merges `symbols` in place to the final tokens (each keeps its unit range).
    void merge(std::vector<Symbol>& symbols) const;

  private:
    static std::uint64_t key(int left, int right)
    {
        return (std::uint64_t(std::uint32_t(left)) << 32) | std::uint32_t(right);
    }
    struct Rule
    {
        int rank;
        int merged;
    };
    std::unordered_map<std::uint64_t, Rule> m_merges;
};

} // namespace kvl
