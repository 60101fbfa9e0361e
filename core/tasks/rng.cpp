#include "tasks/rng.h"

namespace kvl {
namespace {
std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}
} // namespace

std::uint64_t Rng::splitmix64(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t Rng::hashString(const QString& text)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (QChar c : text) {
        h ^= c.unicode();
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::uint64_t Rng::derive(std::uint64_t seed, std::uint64_t index)
{
    std::uint64_t state = seed;
    const std::uint64_t a = splitmix64(state);
    state = a ^ (index * 0xd1b54a32d192ed03ULL);
    return splitmix64(state);
}

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t state = seed;
    for (std::uint64_t& s : m_s)
        s = splitmix64(state);
}

std::uint64_t Rng::next()
{
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

int Rng::below(int n)
{
    if (n <= 1)
        return 0;
    const std::uint64_t bound = std::uint64_t(n);
    const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % bound);
    std::uint64_t x;
    do {
        x = next();
    } while (x >= limit);
    return int(x % bound);
}

bool Rng::chance(double p)
{
    // 53 random bits -> [0, 1), exactly as in every IEEE-754 implementation.
    return double(next() >> 11) * (1.0 / 9007199254740992.0) < p;
}

} // namespace kvl
