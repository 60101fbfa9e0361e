#include "run/decodetimerecords.h"

#include "compressors/compresseddecoding.h"
#include "compressors/decodingpress.h"
#include "compressors/offloaddecoding.h"
#include "compressors/offloadindex.h"
#include "diagnose/retentionmetrics.h"
#include "diagnose/retrievalrecall.h"
#include "run/preparedsample.h"
#include "run/resultrows.h"
#include "tokenizer/tokenizer.h"

#include <torch/types.h>

#include <QJsonArray>
#include <algorithm>

namespace kvl {

namespace {

// Each generated token's end in the decoded answer (UTF-16 offsets): decodes of the
// growing prefix, kept non-decreasing (a prefix may end inside a multi-byte character).
std::vector<int> tokenEndsOf(const Tokenizer& tokenizer, const std::vector<int>& ids)
{
    std::vector<int> ends;
    int last = 0;
    for (size_t i = 1; i <= ids.size(); ++i) {
        last = std::max(last, int(tokenizer.decode({ids.begin(), ids.begin() + i}).size()));
        ends.push_back(last);
    }
    return ends;
}

} // namespace

QJsonObject decodingJson(const CompressedDecoding& d, const DecodingPress& press,
                         const PreparedSample& sample, const at::Tensor& prefillKept,
                         double answerMs)
{
    const int64_t length = int64_t(sample.ids.context.size());
    const auto evidenceKept = [&](const at::Tensor& kept) -> QJsonValue {
        if (sample.evidence.empty())
            return QJsonValue::Null;
        const std::optional<double> err =
            evidenceRetentionRate(keptMaskOf(kept.narrow(2, 0, length)), sample.evidence);
        return err ? QJsonValue(*err) : QJsonValue(QJsonValue::Null);
    };
    const bool merging = press.mergeBudget() > 0;
    QJsonArray steps;
    int64_t candidates = 0;
    int64_t merged = 0;
    for (const DecodeCompressionStep& s : d.steps) {
        QJsonObject step{{QStringLiteral("forward"), s.forward},
                         {QStringLiteral("generated"), qint64(s.generated)},
                         {QStringLiteral("positions"), qint64(s.positions)},
                         {QStringLiteral("target"), qint64(s.target)},
                         {QStringLiteral("entries_before"), qint64(s.entriesBefore)},
                         {QStringLiteral("entries_after"), qint64(s.entriesAfter)},
                         {QStringLiteral("evidence_kept"), evidenceKept(s.kept)}};
        if (merging) {
            step.insert(QStringLiteral("merge_candidates"), qint64(s.mergeCandidates));
            step.insert(QStringLiteral("merged"), qint64(s.merged));
        }
        candidates += s.mergeCandidates;
        merged += s.merged;
        steps.append(step);
    }
    const int64_t tokens = std::max<int64_t>(1, int64_t(d.generation.ids.size()));
    QJsonObject out{{QStringLiteral("interval"), press.interval()},
                    {QStringLiteral("buffer"), press.bufferSize()},
                    {QStringLiteral("prefill_evidence_kept"), evidenceKept(prefillKept)},
                    {QStringLiteral("steps"), steps},
                    {QStringLiteral("final_evidence_kept"), evidenceKept(d.finalKept)},
                    {QStringLiteral("final_entries"), qint64(d.finalEntries)},
                    {QStringLiteral("peak_entries"), qint64(d.peakEntries)},
                    {QStringLiteral("press_ms"), d.pressSeconds * 1e3},
                    {QStringLiteral("press_ms_per_token"), d.pressSeconds * 1e3 / double(tokens)},
                    {QStringLiteral("answer_ms_per_token"), answerMs / double(tokens)}};
    if (merging) {
        out.insert(QStringLiteral("merge_budget"), press.mergeBudget());
        out.insert(QStringLiteral("merge_candidates"), qint64(candidates));
        out.insert(QStringLiteral("merged"), qint64(merged));
    }
    return out;
}

QJsonObject retrievalJson(const OffloadedDecoding& d, const OffloadIndex& index,
                          const PreparedSample& sample, const Tokenizer& tokenizer)
{
    const OffloadSettings& s = index.settings();
    const OffloadCost cost = index.cost();
    const int64_t length = d.selectedShare.size(1);
    const at::Tensor flat = d.selectedShare.to(at::kDouble).contiguous().view({-1});
    const std::vector<double> shares(flat.data_ptr<double>(),
                                     flat.data_ptr<double>() + flat.numel());
    const auto orNull = [](bool has, const QJsonValue& v) { return has ? v : QJsonValue(); };
    const bool lowRank = s.landmark == LandmarkKind::LowRankMean;
    const bool quantized = s.landmark == LandmarkKind::QuantizedKeys;
    const int64_t tokens = std::max<int64_t>(1, int64_t(d.generation.ids.size()));
    QJsonObject out{
        {QStringLiteral("landmark"), landmarkName(s.landmark)},
        {QStringLiteral("chunk"), qint64(s.chunk)},
        {QStringLiteral("rank"), orNull(lowRank, s.rank)},
        {QStringLiteral("budget_tokens"), qint64(index.budgetTokens())},
        {QStringLiteral("local_window"), qint64(s.localWindow)},
        {QStringLiteral("outliers"), qint64(s.outliers)},
        {QStringLiteral("landmark_bits"), orNull(quantized, s.landmarkBits)},
        {QStringLiteral("kv_bits"), orNull(quantized, s.kvBits)},
        {QStringLiteral("steps"), qint64(d.steps())},
        {QStringLiteral("attended_share"),
         d.selectedShare.numel() > 0 ? d.selectedShare.to(at::kDouble).mean().item<double>() : 0.0},
        {QStringLiteral("fetched_bytes_per_step"), cost.fetchedBytesPerStep},
        {QStringLiteral("landmark_bytes"), cost.landmarkBytes},
        {QStringLiteral("press_ms"), d.pressSeconds * 1e3},
        {QStringLiteral("press_ms_per_token"), d.pressSeconds * 1e3 / double(tokens)}};
    const std::vector<double> recall = evidenceRecallPerStep(shares, length, sample.evidence);
    if (recall.empty()) {
        out.insert(QStringLiteral("evidence_recall"), QJsonValue());
        out.insert(QStringLiteral("mean_evidence_recall"), QJsonValue());
    } else {
        QJsonArray steps;
        double sum = 0.0;
        for (const double r : recall) {
            steps.append(r);
            sum += r;
        }
        out.insert(QStringLiteral("evidence_recall"), steps);
        out.insert(QStringLiteral("mean_evidence_recall"), sum / double(recall.size()));
    }
    if (sample.info.suite == QLatin1String("text2json")) {
        std::vector<LabelledPositions> spans;
        for (const SpanPositions& span : sample.spans)
            if (span.kind == QLatin1String("evidence"))
                spans.push_back({span.label, span.positions});
        const QString answer = tokenizer.decode(d.generation.ids);
        QJsonArray fields;
        for (const FieldRecall& f :
             fieldRecalls(text2jsonAnswerFields(answer), tokenEndsOf(tokenizer, d.generation.ids),
                          spans, shares, length))
            fields.append(QJsonObject{{QStringLiteral("name"), f.name},
                                      {QStringLiteral("field"), f.field},
                                      {QStringLiteral("step"), qint64(f.step)},
                                      {QStringLiteral("recall"), f.recall}});
        out.insert(QStringLiteral("field_recall"), fields);
    }
    return out;
}

} // namespace kvl
