#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>

namespace kvl {

// Per-row scoring of kvpress evaluation results (evaluation/benchmarks/<dataset>/
// calculate_metrics.py in NVIDIA/kvpress), rewritten here: where kvpress's metric is a
// string rule its per-row value is reproduced; other datasets are scored by KVLens's
// exact match, and the rule's description says so.

struct KvpressRowScore
{
    bool correct = false;
    std::optional<double> score; // the rule's per-row value (a fraction for string_match_all)
};

enum class KvpressRule
{
    RulerStringMatch, // ruler: string_match_part for qa_* tasks, string_match_all otherwise
    NeedleContained,  // needle_in_haystack: kvpress reports ROUGE; correct = needle contained
    LongBenchV2,      // longbench-v2: "The correct answer is (X)" in the prediction
    BoxedLast,        // aime25: the text of the last \boxed{...} equals the answer
    BoxedFirst,       // math500: the text of the first \boxed{...} equals the answer
    ExactMatch,       // everything else: KVLens's normalized exact match against any gold
};

struct KvpressScoring
{
    KvpressRule rule = KvpressRule::ExactMatch;
    QString goldColumn; // the predictions.csv column holding the gold answer(s)
    bool goldIsList =
        false;           // the column holds a list literal (RULER's answer, LongBench's answers)
    QString description; // for the run's details.scoring
};

// The rule for a kvpress dataset name (evaluate_registry.py's DATASET_REGISTRY keys).
KvpressScoring kvpressScoringFor(const QString& dataset);

KvpressRowScore scoreKvpressRow(KvpressRule rule, const QString& prediction,
                                const QStringList& gold, const QString& task);

// RULER's string_match_part (any reference in the prediction, 0 or 1) or
// string_match_all (the fraction of references in it), after kvpress's cleaning of
// the prediction (stripped, control characters removed), case-insensitive.
bool rulerTaskUsesPartMatch(const QString& task);
double rulerStringMatch(const QString& prediction, const QStringList& references, bool part);

// A list as pandas writes a list-valued cell to CSV: numpy's repr "['a' 'b']" or
// Python's "['a', 'b']" (Python string literals, bare numbers). nullopt when the cell
// is not such a list.
std::optional<QStringList> parsePythonStringList(const QString& cell);

} // namespace kvl
