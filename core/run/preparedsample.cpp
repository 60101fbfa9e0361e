#include "run/preparedsample.h"

#include "tasks/promptplacement.h"
#include "tokenizer/tokenizer.h"

#include <QJsonArray>
#include <algorithm>

namespace kvl {

namespace {

QJsonArray offsetsJson(const std::vector<std::pair<int, int>>& offsets)
{
    QJsonArray out;
    for (const auto& [b, e] : offsets)
        out.append(QJsonArray{b, e});
    return out;
}

} // namespace

PreparedSample prepareSample(const Sample& sample, const QString& key, const Tokenizer& tokenizer,
                             const PromptFormat& format)
{
    PreparedSample p;
    p.sample = sample;
    const PromptPlacement placed = placePrompt(sample, tokenizer, format);
    p.ids = placed.ids;

    std::vector<std::pair<int, size_t>> instructions; // (begin, index into p.spans)
    for (size_t i = 0; i < sample.spans.size(); ++i) {
        const Span& s = sample.spans[i];
        const TokenRange range = placed.spans[i];
        if (range.size() <= 0)
            continue;
        SpanPositions sp;
        sp.kind = spanKindName(s.kind);
        sp.role = s.kind == SpanKind::Instruction ? instructionRoleName(s.role) : QString();
        sp.label = s.label;
        sp.field = spanFieldName(s.field);
        for (int t = range.begin; t < range.end; ++t)
            sp.positions.push_back(t);
        if (s.kind == SpanKind::Instruction)
            instructions.push_back({range.begin, p.spans.size()});
        if (s.kind == SpanKind::Evidence)
            p.evidenceSpans.push_back(sp.positions);
        if (s.kind == SpanKind::Distractor)
            p.distractors.insert(p.distractors.end(), sp.positions.begin(), sp.positions.end());
        p.pressSpans.push_back({range.begin, range.end, sp.role.isEmpty() ? sp.kind : sp.role});
        p.spans.push_back(std::move(sp));
    }
    std::stable_sort(instructions.begin(), instructions.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t order = 0; order < instructions.size(); ++order)
        p.spans[instructions[order].second].instructionOrder = int(order);
    p.evidence = unionOfSpans(p.evidenceSpans);
    p.distractors = unionOfSpans({p.distractors});

    p.info.key = key;
    p.info.suite = sample.suite.isEmpty() ? QStringLiteral("custom") : sample.suite;
    p.info.sourceId = sample.id;
    p.info.contextLen = int(p.ids.context.size());
    p.info.questionLen = int(p.ids.question.size());
    p.info.gold = sample.answer;
    p.info.meta = sample.meta;
    if (!sample.variant.isEmpty())
        p.info.meta.insert(QStringLiteral("variant"), sample.variant);
    // The context text and each prefilled position's character range in it, so that the
    // desktop app can show words coloured by their keep rate (BOS covers no text).
    const QJsonArray offsets = offsetsJson(placed.contextOffsets);
    // The question text too: comparing two runs matches samples by their content
    // (store/samplematching), not by ids that each run draws anew.
    p.info.meta.insert(QStringLiteral("question"), sample.question);
    if (offsets.size() == p.info.contextLen) {
        p.info.meta.insert(QStringLiteral("context"), sample.context);
        p.info.meta.insert(QStringLiteral("token_offsets"), offsets);
    }
    // An instruct prompt: the system turn and the prefilled and tail texts, with each
    // prefilled position's characters of the prefilled text, for views that show the
    // whole compressed part.
    if (format.isChat()) {
        if (!sample.system.isEmpty())
            p.info.meta.insert(QStringLiteral("system"), sample.system);
        p.info.meta.insert(QStringLiteral("prompt_prefix"), placed.prefix);
        p.info.meta.insert(QStringLiteral("prompt_tail"), placed.tail);
        p.info.meta.insert(QStringLiteral("prefix_token_offsets"),
                           offsetsJson(placed.prefixOffsets));
    }
    for (const SpanPositions& s : p.spans) {
        QJsonObject o{{QStringLiteral("kind"), s.kind},
                      {QStringLiteral("start"), s.positions.front()},
                      {QStringLiteral("end"), s.positions.back() + 1}};
        if (!s.role.isEmpty())
            o.insert(QStringLiteral("role"), s.role);
        if (!s.label.isEmpty())
            o.insert(QStringLiteral("label"), s.label);
        if (s.field != QLatin1String("context")) // context: as before system turns existed
            o.insert(QStringLiteral("field"), s.field);
        if (s.instructionOrder)
            o.insert(QStringLiteral("order"), *s.instructionOrder);
        p.info.spans.append(o);
    }
    return p;
}

} // namespace kvl
