#include "run/repeatprompts.h"

#include "common/error.h"
#include "tasks/promptformat.h"
#include "tokenizer/tokenizer.h"

#include <QRegularExpression>

namespace kvl {

RepeatPrompts repeatPromptsFor(const Tokenizer& tokenizer, const PromptFormat& format)
{
    RepeatPrompts prompts;
    prompts.first = tokenizer.encode(QStringLiteral("\n\nRepeat the previous context exactly."));
    prompts.later = tokenizer.encode(
        QStringLiteral("\n\nRepeat the part of the previous context exactly, starting with"));
    if (!format.isChat()) {
        prompts.suffix = tokenizer.encode(QStringLiteral("\n"));
        return prompts;
    }
    // kvpress renders a dummy user turn ending in a separator line and splits there.
    const QString dummy = QStringLiteral("dummy context");
    const QString separator = QStringLiteral("\n") + QString(dummy.size(), QLatin1Char('#'));
    ChatTemplate::Options options = format.options();
    options.addGenerationPrompt = true;
    options.extra.set(QStringLiteral("enable_thinking"), jinja::Value::boolean(false));
    QString rendered;
    try {
        rendered = format.chatTemplate().render(
            std::vector<ChatMessage>{{QStringLiteral("user"), dummy + separator}}, options);
    } catch (const Error& e) {
        prompts.unavailable = e.message();
        return prompts;
    }
    const qsizetype at = rendered.indexOf(separator);
    const qsizetype text = rendered.indexOf(dummy);
    if (at < 0 || text < 0 || text > at) {
        prompts.unavailable =
            Error(format.chatTemplate().origin(),
                  QStringLiteral("KVzip's repeat prompt: the template does not render the "
                                 "user's text as given, so its suffix cannot be found"))
                .message();
        return prompts;
    }
    prompts.suffix = tokenizer.encode(rendered.mid(at + separator.size()));
    prompts.prefixLength = int64_t(tokenizer.encode(rendered.left(text)).size());
    return prompts;
}

bool specReadsRepeatPrompts(const QString& canonicalSpec)
{
    static const QRegularExpression kvzip(QStringLiteral("(^|[^a-z0-9_])kvzip([^a-z0-9_]|$)"));
    return kvzip.match(canonicalSpec).hasMatch();
}

} // namespace kvl
