#include "chattemplate/chatpromptlayout.h"

#include "chattemplate/jinjapython.h"
#include "common/error.h"

#include <algorithm>

namespace kvl {
namespace {

// Where `text` sits in `rendered` when the template either copies it verbatim or trims
// Python whitespace from its edges (Llama 3 and Gemma trim every message). `anchorEnd`
// says the text must end exactly at rendered.size(); otherwise it must occur once.
FieldPlacement place(const QString& rendered, const QString& text, bool anchorEnd,
                     const QString& origin, const char* field)
{
    const QString stripped = jinja::py::strip(text, std::nullopt, true, false);
    const QString trimmed = jinja::py::strip(stripped, std::nullopt, false, true);
    const int lead = int(text.size() - stripped.size());
    struct Candidate
    {
        QString kept;
        int keptBegin;
    };
    const Candidate candidates[] = {{text, 0}, {stripped, lead}, {trimmed, lead}};
    for (const Candidate& c : candidates) {
        if (c.kept.isEmpty())
            continue;
        qsizetype at = -1;
        if (anchorEnd) {
            if (rendered.endsWith(c.kept))
                at = rendered.size() - c.kept.size();
        } else {
            at = rendered.indexOf(c.kept);
            if (at >= 0 && rendered.indexOf(c.kept, at + 1) >= 0)
                throw Error(origin, QStringLiteral("the %1 text occurs more than once in the "
                                                   "rendered prompt; its spans cannot be placed")
                                        .arg(QLatin1String(field)));
        }
        if (at >= 0) {
            FieldPlacement p;
            p.present = true;
            p.offset = int(at) - c.keptBegin;
            p.keptBegin = c.keptBegin;
            p.keptEnd = c.keptBegin + int(c.kept.size());
            return p;
        }
    }
    if (trimmed.isEmpty()) {
        // All whitespace (or empty): nothing of it to find, nothing to map.
        FieldPlacement p;
        p.present = true;
        p.offset = anchorEnd ? int(rendered.size()) : 0;
        return p;
    }
    throw Error(origin, QStringLiteral("the chat template changes the %1 text beyond trimming "
                                       "its edges; its spans cannot be placed")
                            .arg(QLatin1String(field)));
}

} // namespace

std::pair<int, int> ChatPromptLayout::map(Field field, int begin, int end) const
{
    const FieldPlacement& p = field == Field::System    ? system
                              : field == Field::Context ? context
                                                        : question;
    const int b = std::max(begin, p.keptBegin);
    const int e = std::min(end, p.keptEnd);
    if (!p.present || b >= e)
        return {-1, -1};
    return {p.offset + b, p.offset + e};
}

namespace {

// The pitfalls study's system-prompt layout: the compressed part is the system turn as
// the template renders it alone (apply_chat_template([system])), the whole user turn and
// the generation prompt follow uncompressed. Used when the context is empty.
ChatPromptLayout layoutSystemOnly(const ChatTemplate& chatTemplate, const ChatPromptInput& input,
                                  ChatTemplate::Options options)
{
    options.addGenerationPrompt = false;
    const QString systemTurn = chatTemplate.render(
        std::vector<ChatMessage>{{QStringLiteral("system"), input.system}}, options);
    options.addGenerationPrompt = true;
    const QString rendered =
        chatTemplate.render(std::vector<ChatMessage>{{QStringLiteral("system"), input.system},
                                                     {QStringLiteral("user"), input.question}},
                            options);
    // Their common start: the system turn alone for templates that add the assistant's
    // header only when asked; Llama 3's adds it always, so there the split falls after the
    // system turn and the next header's first special token.
    qsizetype common = 0;
    while (common < systemTurn.size() && common < rendered.size() &&
           systemTurn[common] == rendered[common])
        ++common;
    ChatPromptLayout layout;
    layout.prefix = rendered.left(common);
    layout.tail = rendered.mid(common);
    const QString trimmed = input.system.trimmed();
    if (!layout.prefix.contains(trimmed))
        throw Error(chatTemplate.origin(),
                    QStringLiteral("the template renders no system turn of its own before the "
                                   "user turn (it moves the system text elsewhere), so the "
                                   "system turn cannot be split from the user turn"));
    layout.system = place(layout.prefix, input.system, false, chatTemplate.origin(), "system");
    layout.context.present = true;
    layout.context.offset = int(layout.prefix.size());
    layout.question = input.question.trimmed().isEmpty() ? FieldPlacement{}
                                                         : place(layout.tail, input.question, false,
                                                                 chatTemplate.origin(), "question");
    return layout;
}

} // namespace

ChatPromptLayout layoutChatPrompt(const ChatTemplate& chatTemplate, const ChatPromptInput& input,
                                  ChatTemplate::Options options)
{
    if (input.context.isEmpty() && !input.system.isEmpty())
        return layoutSystemOnly(chatTemplate, input, std::move(options));
    // A marker no field contains, so that it appears in the render only where it was put.
    // (kvpress uses a run of '#' longer than the context; a short marker keeps the search
    // linear on contexts of a million characters.)
    QString separator;
    for (int k = 0; separator.isEmpty() || input.system.contains(separator) ||
                    input.context.contains(separator) || input.question.contains(separator);
         ++k)
        separator = QStringLiteral("[[###%1###]]").arg(k);
    std::vector<ChatMessage> messages;
    if (!input.system.isEmpty())
        messages.push_back({QStringLiteral("system"), input.system});
    messages.push_back({QStringLiteral("user"), input.context + separator});
    options.addGenerationPrompt = true;
    const QString rendered = chatTemplate.render(messages, options);

    const qsizetype at = rendered.indexOf(separator);
    if (at < 0 || rendered.indexOf(separator, at + separator.size()) >= 0)
        throw Error(chatTemplate.origin(),
                    QStringLiteral("the rendered prompt does not hold the context's end marker "
                                   "exactly once; the context cannot be split from the question"));
    ChatPromptLayout layout;
    layout.prefix = rendered.left(at);
    const QString suffix = rendered.mid(at + separator.size());
    layout.tail = input.question + suffix;
    layout.context = place(layout.prefix, input.context, true, chatTemplate.origin(), "context");
    if (!input.system.isEmpty()) {
        const int contextStart = layout.context.offset + layout.context.keptBegin;
        layout.system = place(layout.prefix.left(contextStart), input.system, false,
                              chatTemplate.origin(), "system");
    }
    layout.question.present = true;
    layout.question.keptEnd = int(input.question.size());
    return layout;
}

} // namespace kvl
