#pragma once

#include <QString>
#include <optional>

namespace kvl {

// What a span marks (SCIENCE.md vocabulary): evidence a correct answer needs, a
// distractor that looks like evidence, or one instruction of the prompt.
enum class SpanKind
{
    Evidence,
    Distractor,
    Instruction
};

// The part an instruction plays (the pitfalls study separates them).
enum class InstructionRole
{
    None,
    SystemRule,
    FormatRule,
    Secret,
    Request,
    Defense
};

// Which text of the sample the character offsets index. System: the sample's system
// turn, which only an instruct layout (a chat template) has.
enum class SpanField
{
    Context,
    Question,
    System
};

// A character range [begin, end) of the context, the question or the system turn (UTF-16 offsets,
// as QString indexes them), annotated with its kind; `role` is set for instructions only.
struct Span
{
    SpanKind kind = SpanKind::Evidence;
    InstructionRole role = InstructionRole::None;
    QString label;
    SpanField field = SpanField::Context;
    int begin = 0;
    int end = 0;

    bool operator==(const Span&) const = default;
};

QString spanKindName(SpanKind kind);
std::optional<SpanKind> spanKindFromName(const QString& name);
QString instructionRoleName(InstructionRole role);
std::optional<InstructionRole> instructionRoleFromName(const QString& name);
QString spanFieldName(SpanField field);
std::optional<SpanField> spanFieldFromName(const QString& name);

} // namespace kvl
