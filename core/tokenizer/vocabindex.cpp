#include "tokenizer/vocabindex.h"

#include <algorithm>

namespace kvl {

std::uint64_t VocabIndex::hashOf(QStringView s)
{
    // FNV-1a over UTF-16 units, then a final mix so the low bits spread well.
    std::uint64_t h = 1469598103934665603ull;
    for (QChar c : s) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

void VocabIndex::reserve(int count)
{
    m_keys.reserve(size_t(count));
    m_ids.reserve(size_t(count));
    size_t capacity = 16;
    while (capacity < size_t(count) * 2)
        capacity *= 2;
    if (capacity > m_slots.size()) {
        m_slots.assign(capacity, Slot{});
        for (int e = 0; e < int(m_keys.size()); ++e) {
            const std::uint64_t h = hashOf(m_keys[size_t(e)]);
            size_t i = h & (m_slots.size() - 1);
            while (m_slots[i].entry >= 0)
                i = (i + 1) & (m_slots.size() - 1);
            m_slots[i] = {h, e};
        }
    }
}

void VocabIndex::grow()
{
    reserve(std::max(16, int(m_keys.size()) * 2));
}

bool VocabIndex::insert(const QString& token, int id)
{
    if ((m_keys.size() + 1) * 2 > m_slots.size())
        grow();
    const std::uint64_t h = hashOf(token);
    size_t i = h & (m_slots.size() - 1);
    while (m_slots[i].entry >= 0) {
        if (m_slots[i].hash == h && m_keys[size_t(m_slots[i].entry)] == token)
            return false;
        i = (i + 1) & (m_slots.size() - 1);
    }
    m_slots[i] = {h, int(m_keys.size())};
    m_keys.push_back(token);
    m_ids.push_back(id);
    return true;
}

int VocabIndex::find(QStringView token) const
{
    if (m_slots.empty())
        return -1;
    const std::uint64_t h = hashOf(token);
    size_t i = h & (m_slots.size() - 1);
    while (m_slots[i].entry >= 0) {
        if (m_slots[i].hash == h && m_keys[size_t(m_slots[i].entry)] == token)
            return m_ids[size_t(m_slots[i].entry)];
        i = (i + 1) & (m_slots.size() - 1);
    }
    return -1;
}

} // namespace kvl
