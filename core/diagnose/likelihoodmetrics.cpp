#include "diagnose/likelihoodmetrics.h"

#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace kvl {

namespace {
void checkSameVocabulary(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
        throw Error(QStringLiteral("next-token distributions differ in size (%1 vs %2)")
                        .arg(a.size())
                        .arg(b.size()));
}

std::vector<int> topK(const std::vector<float>& logits, int k)
{
    std::vector<int> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](int a, int b) {
        return logits[std::size_t(a)] > logits[std::size_t(b)] ||
               (logits[std::size_t(a)] == logits[std::size_t(b)] && a < b);
    });
    ids.resize(std::size_t(k));
    return ids;
}
} // namespace

double deltaNll(double nllCompressed, double nllFull)
{
    return nllCompressed - nllFull;
}

double goldProbabilityRatio(double deltaNll)
{
    return std::exp(-deltaNll);
}

std::vector<double> logSoftmax(const std::vector<float>& logits)
{
    if (logits.empty())
        return {};
    const double maxLogit = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (float x : logits)
        sum += std::exp(double(x) - maxLogit);
    const double logZ = maxLogit + std::log(sum);
    std::vector<double> out(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i)
        out[i] = double(logits[i]) - logZ;
    return out;
}

double nextTokenKl(const std::vector<float>& fullLogits, const std::vector<float>& compLogits)
{
    checkSameVocabulary(fullLogits, compLogits);
    const std::vector<double> lp = logSoftmax(fullLogits);
    const std::vector<double> lq = logSoftmax(compLogits);
    double kl = 0.0;
    for (std::size_t i = 0; i < lp.size(); ++i)
        kl += std::exp(lp[i]) * (lp[i] - lq[i]);
    return std::max(kl, 0.0); // rounding can leave a tiny negative for equal inputs
}

std::optional<double> topKOverlap(const std::vector<float>& fullLogits,
                                  const std::vector<float>& compLogits, int k)
{
    checkSameVocabulary(fullLogits, compLogits);
    k = std::min<int>(k, int(fullLogits.size()));
    if (k <= 0)
        return std::nullopt;
    const std::vector<int> a = topK(fullLogits, k);
    const std::vector<int> bList = topK(compLogits, k);
    const std::set<int> b(bList.begin(), bList.end());
    int common = 0;
    for (int id : a)
        common += b.count(id) ? 1 : 0;
    return double(common) / double(k);
}

int goldRank(const std::vector<float>& logits, int goldToken)
{
    if (goldToken < 0 || std::size_t(goldToken) >= logits.size())
        throw Error(QStringLiteral("gold token %1 outside the vocabulary of %2")
                        .arg(goldToken)
                        .arg(logits.size()));
    const float gold = logits[std::size_t(goldToken)];
    return int(std::count_if(logits.begin(), logits.end(), [gold](float x) { return x > gold; }));
}

int goldRankShift(const std::vector<float>& fullLogits, const std::vector<float>& compLogits,
                  int goldToken)
{
    checkSameVocabulary(fullLogits, compLogits);
    return goldRank(compLogits, goldToken) - goldRank(fullLogits, goldToken);
}

} // namespace kvl
