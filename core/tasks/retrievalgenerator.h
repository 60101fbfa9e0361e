#pragma once

#include "tasks/taskgenerator.h"

namespace kvl {

// RULER-like retrieval: "The access code of <name> is <number>." records among
// filler and look-alike records (other names, near-miss names sharing a first or
// last name). Evidence: the records of the asked names; distractors: all others.
class RetrievalGenerator : public TaskGenerator
{
  public:
    QString suite() const override { return QStringLiteral("retrieval"); }
    QString description() const override;
    QStringList variants() const override;
    QString variantDescription(const QString& variant) const override;
    std::vector<FollowUp> followUps(const Sample& sample) const override;

  protected:
    Sample generateVariant(const Tokenizer& tokenizer, const QString& variant,
                           const LengthRequest& length, Rng& rng) const override;
};

} // namespace kvl
