#pragma once

#include "diagnose/retentionmetrics.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace kvl {

// Retrieval recall under offloading (issue 19): how much of the evidence a decoding step
// fetched. `shares` is row-major [steps, contextLength]: per forward after the context
// and per context position, the share of (layer, kv-head, query row) selections that
// included it (OffloadedDecoding::selectedShare).

// The share of (evidence token, layer, kv-head, row) entries step `step` retrieved: the
// mean of its shares over the evidence positions inside the context; nullopt when there
// are none.
std::optional<double> evidenceRecall(const std::vector<double>& shares, int64_t contextLength,
                                     int64_t step, const Positions& evidence);

// evidenceRecall of every step (empty when the evidence has no position in the context).
std::vector<double> evidenceRecallPerStep(const std::vector<double>& shares, int64_t contextLength,
                                          const Positions& evidence);

// One "field": "value" member of a Text2JSON answer and where its value starts in the
// text (UTF-16 index, as QString counts), with the "name" of the object it belongs to.
struct AnswerField
{
    QString name;
    QString field;
    int valueOffset = 0;
};

// The members of a (possibly malformed) JSON list of objects, in text order: every
// "key": "value" pair except "name" itself, attributed to the last "name" of the same
// object ('{' starts a new one). Members before any name are left out.
std::vector<AnswerField> text2jsonAnswerFields(const QString& answer);

// The generated token that holds character `offset` of the answer, from each token's end
// offset in the decoded text (token i spans [ends[i - 1], ends[i])); nullopt past the end.
std::optional<int64_t> tokenAtOffset(const std::vector<int>& tokenEnds, int offset);

// A labelled evidence span of the sample ("<name>.<field>" for Text2JSON).
struct LabelledPositions
{
    QString label;
    Positions positions;
};

// The recall of one answer field: the step that generated the first token of the field's
// value (token i is chosen by step i), against the evidence span labelled
// "<name>.<field>".
struct FieldRecall
{
    QString name;
    QString field;
    int64_t step = 0;
    double recall = 0.0;
};

// FieldRecall of every answer field whose value was generated within the recorded steps
// and whose "<name>.<field>" evidence span exists (a field of a name the context never
// mentions has no evidence to recall).
std::vector<FieldRecall> fieldRecalls(const std::vector<AnswerField>& fields,
                                      const std::vector<int>& tokenEnds,
                                      const std::vector<LabelledPositions>& evidenceSpans,
                                      const std::vector<double>& shares, int64_t contextLength);

} // namespace kvl
