// IFEval (google-research instruction_following_eval, input_data.jsonl): `key`,
// `prompt`, `instruction_id_list`, `kwargs` (one object per instruction). The pitfalls
// study's sys_ifeval.jsonl adds `messages` ([{role: system, content: the
// instructions}, {role: user, content: the request}]).
//
// Context and question: with a system message, the context is the system message (the
// part compression may evict) and the question a newline then the user message;
// without, the context is the prompt and the question a newline.
//
// Instruction spans (role format_rule, label the instruction id): the sentence of the
// context holding the instruction's anchor. Anchors, tried in order: the kwargs values
// (strings of 2+ characters and integers, exact match; not `prompt_to_repeat`, the
// request itself, nor `language`, a code), then the instruction's keyword from
// kKeywords (case-insensitive). A sentence runs from after the previous '.', '?' or '!'
// followed by a space, or newline, to its own. An instruction whose anchor is not found
// gets no span and is listed in meta.unlocated (an anchor is a heuristic, not a span
// the format gives, so this is not an error).
//
// IFEval has no gold response: the answer is empty. Its checkers are not KVLens rules;
// change_case:english_capital maps to the `uppercase` check in meta.rules, so
// `score --suite instructions` scores that one; the rest are unscored.
#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

#include <algorithm>

namespace kvl {
namespace {

struct Keyword
{
    const char* instruction;
    const char* keyword;
};

// Instructions without kwargs and the word their IFEval phrasing always uses.
constexpr Keyword kKeywords[] = {
    {"punctuation:no_comma", "comma"},
    {"change_case:english_lowercase", "lowercase"},
    {"change_case:english_lowercase", "lower case"},
    {"change_case:english_capital", "capital"},
    {"detectable_format:json_format", "JSON"},
    {"detectable_format:title", "<<"},
    {"combination:two_responses", "******"},
    {"combination:repeat_prompt", "repeat the request"},
    {"startend:quotation", "quotation"},
    {"detectable_format:constrained_response", "My answer is"},
};

bool sentenceEndAt(const QString& text, int i)
{
    const QChar c = text.at(i);
    if (c == QLatin1Char('\n'))
        return true;
    return (c == QLatin1Char('.') || c == QLatin1Char('?') || c == QLatin1Char('!')) &&
           (i + 1 == int(text.size()) || text.at(i + 1).isSpace());
}

// The sentence of `text` around [begin, end).
std::pair<int, int> sentenceAround(const QString& text, int begin, int end)
{
    int b = begin;
    while (b > 0 && !sentenceEndAt(text, b - 1))
        --b;
    int e = end;
    while (e < int(text.size()) && !sentenceEndAt(text, e))
        ++e;
    if (e < int(text.size()) && text.at(e) != QLatin1Char('\n'))
        ++e; // keep the full stop
    return {b, e};
}

QStringList kwargAnchors(const QJsonObject& kwargs)
{
    QStringList anchors;
    for (auto it = kwargs.begin(); it != kwargs.end(); ++it) {
        if (it.key() == QLatin1String("prompt_to_repeat") || it.key() == QLatin1String("language"))
            continue;
        const QJsonValue v = it.value();
        if (v.isString() && v.toString().size() >= 2)
            anchors << v.toString();
        else if (const std::optional<qint64> whole = jsonWholeNumber(v))
            anchors << QString::number(*whole);
        else if (v.isArray())
            for (const QJsonValue& item : v.toArray())
                if (item.isString() && item.toString().size() >= 2)
                    anchors << item.toString();
    }
    return anchors;
}

} // namespace

std::vector<Sample> importIfEval(const QString& path, const ImportOptions&)
{
    std::vector<Sample> samples;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        const QString key = r.idText(QStringLiteral("key"));
        r.setId(key);
        Sample s;
        s.id = QStringLiteral("ifeval-") + key;
        const QString prompt = r.string(QStringLiteral("prompt"));
        const QStringList ids = r.strings(QStringLiteral("instruction_id_list"));
        const QJsonArray kwargs = r.array(QStringLiteral("kwargs"));
        if (kwargs.size() != ids.size())
            r.fail(QStringLiteral("kwargs"), QStringLiteral("has %1 entries for %2 instructions")
                                                 .arg(kwargs.size())
                                                 .arg(ids.size()));

        QString system, user;
        if (r.has(QStringLiteral("messages"))) {
            const QJsonArray messages = r.array(QStringLiteral("messages"));
            for (qsizetype i = 0; i < messages.size(); ++i) {
                const QString at = QStringLiteral("messages[%1]").arg(i);
                const QJsonObject m = r.objectAt(messages.at(i), at);
                const QString role =
                    r.stringAt(m.value(QStringLiteral("role")), at + QStringLiteral(".role"));
                const QString content =
                    r.stringAt(m.value(QStringLiteral("content")), at + QStringLiteral(".content"));
                if (role == QLatin1String("system"))
                    system = content;
                else if (role == QLatin1String("user"))
                    user = content;
            }
        }
        s.context = system.isEmpty() ? prompt : system;
        s.question = QLatin1Char('\n') + (system.isEmpty() ? QString() : user);
        if (s.context.trimmed().isEmpty())
            r.fail(system.isEmpty() ? QStringLiteral("prompt") : QStringLiteral("messages"),
                   QStringLiteral("the instructions are empty"));

        QJsonArray rules, unlocated;
        for (qsizetype i = 0; i < ids.size(); ++i) {
            const QJsonValue kw = kwargs.at(i);
            const QJsonObject args =
                kw.isNull() ? QJsonObject() : r.objectAt(kw, QStringLiteral("kwargs[%1]").arg(i));
            int at = -1, length = 0;
            for (const QString& anchor : kwargAnchors(args)) {
                at = int(s.context.indexOf(anchor));
                length = int(anchor.size());
                if (at >= 0)
                    break;
            }
            for (const Keyword& k : kKeywords) {
                if (at >= 0)
                    break;
                if (ids[i] != QLatin1String(k.instruction))
                    continue;
                const QString word = QLatin1String(k.keyword);
                at = int(s.context.indexOf(word, 0, Qt::CaseInsensitive));
                length = int(word.size());
            }
            if (at < 0) {
                unlocated.append(ids[i]);
            } else {
                const auto [b, e] = sentenceAround(s.context, at, at + length);
                Span span = contextSpan(s.context, SpanKind::Instruction, b, e, ids[i]);
                span.role = InstructionRole::FormatRule;
                s.spans.push_back(span);
            }
            if (ids[i] == QLatin1String("change_case:english_capital"))
                rules.append(QJsonObject{{QStringLiteral("check"), QStringLiteral("uppercase")},
                                         {QStringLiteral("value"), QString()}});
        }
        std::stable_sort(s.spans.begin(), s.spans.end(),
                         [](const Span& a, const Span& b) { return a.begin < b.begin; });

        s.suite = QStringLiteral("ifeval");
        s.variant = system.isEmpty() ? QStringLiteral("prompt") : QStringLiteral("system");
        s.meta.insert(QStringLiteral("source"), QStringLiteral("ifeval"));
        s.meta.insert(QStringLiteral("instruction_id_list"), QJsonArray::fromStringList(ids));
        s.meta.insert(QStringLiteral("kwargs"), kwargs);
        s.meta.insert(QStringLiteral("rules"), rules);
        s.meta.insert(QStringLiteral("unlocated"), unlocated);
        if (!system.isEmpty())
            s.meta.insert(QStringLiteral("system_prompt"), system);
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
