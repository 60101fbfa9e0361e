#pragma once

// Two hand-made runs for the run comparison tests (store and app): samples matched
// by content, one id naming other content, samples of one run only. The figures the
// tests expect are worked out in the comment of writeComparedRuns.
#include "storefixtures.h"

namespace kvl::test {

struct Hand
{
    QString key;
    QString context;
    QString gold;
    std::vector<bool> correct; // per configuration of `configs`, in that order
    QString question = QStringLiteral("Who?");
};

inline SampleRecord handMade(const Hand& h, const std::vector<ConfigRecord>& configs,
                             bool storeQuestion)
{
    SampleRecord rec;
    rec.sample.key = h.key;
    rec.sample.suite = QStringLiteral("retrieval");
    rec.sample.contextLen = int(h.context.size());
    rec.sample.gold = h.gold;
    rec.sample.meta.insert(QStringLiteral("context"), h.context);
    if (storeQuestion)
        rec.sample.meta.insert(QStringLiteral("question"), h.question);
    for (size_t c = 0; c < configs.size(); ++c) {
        ResultRecord r;
        r.configKey = configs[c].key;
        r.correct = h.correct[c];
        r.answer = r.correct ? h.gold : QStringLiteral("wrong");
        rec.results.push_back(r);
    }
    return rec;
}

inline void writeHandRun(const QString& path, const std::vector<ConfigRecord>& configs,
                         const std::vector<Hand>& samples, bool storeQuestion = true)
{
    RunWriter w(path);
    w.setRunInfo(runInfo());
    for (const ConfigRecord& c : configs)
        w.addConfig(c);
    for (const Hand& h : samples)
        w.writeSample(handMade(h, configs, storeQuestion));
    w.setStatus(QStringLiteral("finished"));
}

inline const ConfigRecord kCompareFull = config(QStringLiteral("FullCache"), 0.0);
inline const ConfigRecord kCompareSnap = config(QStringLiteral("SnapKV"), 0.5);
inline const ConfigRecord kCompareTova = config(QStringLiteral("TOVA"), 0.5);

// Run A (FullCache, SnapKV@0.5)          Run B (FullCache, SnapKV@0.5, TOVA@0.5)
//   p1 "Zoe Pike", long context  C W       p1 "Zoe Hart", short context  C C C
//   p2 "Ann"                     C C       x2 = A's p2 under another id   C W C
//   p3 (only in A)               C C       p4 (only in B)                 C C C
//   p5 "Bo"                      W W       p5 = A's p5                    C C W
// Matched: p2-x2, p5-p5. Mismatched: p1 (answer and context differ). Only A: p3.
// Only B: p4. Over the matched pairs:
//   FullCache  A 1/2 (p2), B 2/2: Δ +0.5; correct only in B: p5.
//   SnapKV@0.5 A 1/2 (p2), B 1/2 (p5): Δ 0; one each way.
//   TOVA@0.5   only in B: n 0, no accuracy.
inline void writeComparedRuns(const QString& a, const QString& b, bool questionInA = true)
{
    writeHandRun(
        a, {kCompareFull, kCompareSnap},
        {{QStringLiteral("p1"),
          QStringLiteral("a long context about Zoe Pike"),
          QStringLiteral("Zoe Pike"),
          {true, false}},
         {QStringLiteral("p2"),
          QStringLiteral("Ann lives here"),
          QStringLiteral("Ann"),
          {true, true}},
         {QStringLiteral("p3"), QStringLiteral("only A"), QStringLiteral("C"), {true, true}},
         {QStringLiteral("p5"),
          QStringLiteral("Bo lives there"),
          QStringLiteral("Bo"),
          {false, false}}},
        questionInA);
    writeHandRun(
        b, {kCompareFull, kCompareSnap, kCompareTova},
        {{QStringLiteral("p1"),
          QStringLiteral("Zoe Hart"),
          QStringLiteral("Zoe Hart"),
          {true, true, true}},
         {QStringLiteral("x2"),
          QStringLiteral("Ann lives here"),
          QStringLiteral("Ann"),
          {true, false, true}},
         {QStringLiteral("p4"), QStringLiteral("only B"), QStringLiteral("D"), {true, true, true}},
         {QStringLiteral("p5"),
          QStringLiteral("Bo lives there"),
          QStringLiteral("Bo"),
          {true, true, false}}});
}

} // namespace kvl::test
