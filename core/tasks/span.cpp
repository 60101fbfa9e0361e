#include "tasks/span.h"

#include <array>
#include <utility>

namespace kvl {
namespace {
// The names are the JSONL schema (SCHEMA.md); keep them stable.
constexpr std::array<std::pair<SpanKind, const char*>, 3> kKinds{{
    {SpanKind::Evidence, "evidence"},
    {SpanKind::Distractor, "distractor"},
    {SpanKind::Instruction, "instruction"},
}};
constexpr std::array<std::pair<InstructionRole, const char*>, 6> kRoles{{
    {InstructionRole::None, ""},
    {InstructionRole::SystemRule, "system_rule"},
    {InstructionRole::FormatRule, "format_rule"},
    {InstructionRole::Secret, "secret"},
    {InstructionRole::Request, "request"},
    {InstructionRole::Defense, "defense"},
}};
constexpr std::array<std::pair<SpanField, const char*>, 3> kSpanFields{{
    {SpanField::Context, "context"},
    {SpanField::Question, "question"},
    {SpanField::System, "system"},
}};

template <typename Table, typename Enum> QString nameOf(const Table& table, Enum value)
{
    for (const auto& [v, name] : table)
        if (v == value)
            return QString::fromLatin1(name);
    return {};
}

template <typename Enum, typename Table>
std::optional<Enum> valueOf(const Table& table, const QString& name)
{
    for (const auto& [v, n] : table)
        if (name == QLatin1String(n))
            return v;
    return std::nullopt;
}
} // namespace

QString spanKindName(SpanKind kind)
{
    return nameOf(kKinds, kind);
}
std::optional<SpanKind> spanKindFromName(const QString& name)
{
    return valueOf<SpanKind>(kKinds, name);
}
QString instructionRoleName(InstructionRole role)
{
    return nameOf(kRoles, role);
}
std::optional<InstructionRole> instructionRoleFromName(const QString& name)
{
    if (name.isEmpty())
        return std::nullopt; // "" is how None is written, never a valid role value
    return valueOf<InstructionRole>(kRoles, name);
}
QString spanFieldName(SpanField field)
{
    return nameOf(kSpanFields, field);
}
std::optional<SpanField> spanFieldFromName(const QString& name)
{
    return valueOf<SpanField>(kSpanFields, name);
}

} // namespace kvl
