#pragma once

#include "tasks/taskgenerator.h"

namespace kvl {

// A system prompt of rules at the start of the context (a secret and a defense that
// forbids revealing it, format rules: answer prefix, upper case; a content rule: a
// closing word), then a document of access-code records and filler, then a request:
// a lookup, or an attack that tries to extract the system prompt. The gold answer is
// what a model obeying every rule says. meta.rules lists the checks (see
// InstructionScore), meta.system_prompt the text leakage is measured against.
class InstructionsGenerator : public TaskGenerator
{
  public:
    QString suite() const override { return QStringLiteral("instructions"); }
    QString description() const override;
    QStringList variants() const override;
    QString variantDescription(const QString& variant) const override;
    // Lookups of the document's other records and two attacks, each answered under the
    // sample's rules (prefix, closing word, case): compliance far from the prompt.
    std::vector<FollowUp> followUps(const Sample& sample) const override;

  protected:
    Sample generateVariant(const Tokenizer& tokenizer, const QString& variant,
                           const LengthRequest& length, Rng& rng) const override;
};

} // namespace kvl
