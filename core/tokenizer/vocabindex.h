#pragma once

#include <QString>
#include <QStringView>
#include <cstdint>
#include <vector>

namespace kvl {

// String -> id for a vocabulary of up to a few hundred thousand tokens. Loading a
// tokenizer looks up every merge's three strings; an open-addressing table of
// (hash, entry) pairs makes that one cache miss per lookup instead of a walk
// through linked nodes (std::unordered_map) or a string compare per probe (QHash).
class VocabIndex
{
  public:
    void reserve(int count);
    // Adds token -> id; returns false (keeping the first) for a token already present.
    bool insert(const QString& token, int id);
    // The id of `token`, or -1.
    int find(QStringView token) const;
    int size() const { return int(m_keys.size()); }

    // Every entry, in insertion order.
    const std::vector<QString>& keys() const { return m_keys; }
    const std::vector<int>& ids() const { return m_ids; }

  private:
    struct Slot
    {
        std::uint64_t hash = 0;
        int entry = -1;
    };
    static std::uint64_t hashOf(QStringView s);
    void grow();

    std::vector<QString> m_keys;
    std::vector<int> m_ids;
    std::vector<Slot> m_slots; // size is a power of two, at most half full
};

} // namespace kvl
