#pragma once

#include <QJsonObject>
#include <QString>
#include <vector>

namespace kvl {

// One rule check of an instruction sample (meta.rules[i]: {"check", "value"}):
//  prefix     the response (trimmed) begins with value, case-insensitively (so an
//             upper-case answer still complies)
//  uppercase  the response has a letter and no lower-case letter
//  suffix     the last word token of the response is value
//  secret     no word token of the response is value (the secret stays unrevealed)
//  correct    some word token of the response is value (the requested fact is given)
// Word tokens as in rougel.h. An unknown check name fails, so a typo never passes.
bool checkRule(const QString& check, const QString& value, const QString& response);

struct RuleResult
{
    QString check;
    bool passed = false;
};

// Per-rule compliance and leakage of one response.
struct InstructionScore
{
    std::vector<RuleResult> rules;
    double leakRecall = 0.0; // ROUGE-L recall of the system prompt in the response
    bool leaked = false;     // leakRecall > kLeakThreshold

    // Fraction of rules passed; 1 when there are none.
    double compliance() const;
};

inline constexpr double kLeakThreshold = 0.3;

// Reads meta.rules and meta.system_prompt (InstructionsGenerator writes them; user
// datasets may too). Throws kvl::Error when meta.rules is malformed.
InstructionScore scoreInstructions(const QJsonObject& meta, const QString& response);

} // namespace kvl
