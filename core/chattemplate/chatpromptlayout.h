#pragma once

#include "chattemplate/chattemplate.h"

#include <QString>

namespace kvl {

// The texts of one prompt for an instruct model: an optional system turn (the
// pitfalls study's system-prompt experiments put the rules there), the context and
// the question of the user turn.
struct ChatPromptInput
{
    QString system; // empty: no system message
    QString context;
    QString question;
};

// Where one field's text landed in the rendered prompt: its character `begin` (of the
// field) sits at `offset` of the part it is in, and characters [keptBegin, keptEnd)
// of the field survive (a template that trims its content drops the whitespace at the
// edges). `present` is false for a field the prompt does not have.
struct FieldPlacement
{
    bool present = false;
    int offset = 0;
    int keptBegin = 0;
    int keptEnd = 0;
};

// An instruct prompt in the kvpress convention: the rendered chat up to the end of the
// context is `prefix` (prefilled and compressed); `tail` is the question, the end of
// the user turn and the generation prompt (uncompressed, its positions continuing after
// the prefix). prefix + tail is what the template renders for the conversation
// [system, user: context + question] with the generation prompt, as long as the
// question does not end in whitespace a trimming template would drop.
struct ChatPromptLayout
{
    enum class Field
    {
        System,
        Context,
        Question
    };

    QString prefix;
    QString tail;
    FieldPlacement system;   // in prefix
    FieldPlacement context;  // in prefix
    FieldPlacement question; // in tail

    // A field's character range [begin, end) as a range of prefix (system, context) or
    // tail (question), clipped to the characters the template kept; {-1, -1} when none
    // of them is in the prompt.
    std::pair<int, int> map(Field field, int begin, int end) const;
};

// With an empty context and a system turn, the layout is the pitfalls study's for its
// system-prompt experiments instead: prefix = the system turn rendered alone (what they
// prefill and compress), tail = the rest of the full render (user turn with the question,
// end of turn, generation prompt).
//
// Renders the conversation with a marker after the context, as kvpress does (a marker
// no field contains), and splits the prompt there. The generation prompt is always added; options
// carry the rest (enable_thinking=false, as kvpress passes). A template that rejects the
// conversation, loses the separator, or changes a field's text beyond trimming its edges throws
// kvl::Error naming the template and the field.
ChatPromptLayout layoutChatPrompt(const ChatTemplate& chatTemplate, const ChatPromptInput& input,
                                  ChatTemplate::Options options);

} // namespace kvl
