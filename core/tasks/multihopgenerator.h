#pragma once

#include "tasks/taskgenerator.h"

namespace kvl {

// Variable tracking (RULER): "Alpha = 4821." then "Bravo = Alpha." ... asked for the
// value of the last variable of one chain, among distractor chains. Links of a chain
// appear in order; chains interleave. Evidence: every link of the asked chain.
class MultihopGenerator : public TaskGenerator
{
  public:
    QString suite() const override { return QStringLiteral("multihop"); }
    QString description() const override;
    QStringList variants() const override;
    QString variantDescription(const QString& variant) const override;
    std::vector<FollowUp> followUps(const Sample& sample) const override;

  protected:
    Sample generateVariant(const Tokenizer& tokenizer, const QString& variant,
                           const LengthRequest& length, Rng& rng) const override;
};

} // namespace kvl
