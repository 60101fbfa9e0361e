#pragma once

#include "tasks/taskgenerator.h"

namespace kvl {

// Text2JSON: people whose fields (city, job, favourite colour, pet) are stated in
// sentences scattered through the text; the answer is a JSON list of objects with
// the name and the asked fields, in order of first mention. Evidence: every sentence
// of an asked field; distractors: sentences of fields not asked and access-code
// records of the same people. people2: one or two people, one or two asked fields (a
// setting a small model can learn to list and close); people1: one person, one or two
// asked fields (the setting resources/models/kvlens-tiny-text2json answers).
class Text2JsonGenerator : public TaskGenerator
{
  public:
    QString suite() const override { return QStringLiteral("text2json"); }
    QString description() const override;
    QStringList variants() const override;
    // people2 and people1 only when asked by name: the fields variants' samples keep their
    // bytes.
    QStringList drawnVariants() const override;
    QString variantDescription(const QString& variant) const override;
    // Each field the context states but the sample does not ask, alone, listed for every
    // person; a person without a sentence for it has no such key.
    std::vector<FollowUp> followUps(const Sample& sample) const override;

  protected:
    Sample generateVariant(const Tokenizer& tokenizer, const QString& variant,
                           const LengthRequest& length, Rng& rng) const override;
};

} // namespace kvl
