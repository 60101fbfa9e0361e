#pragma once

#include "chattemplate/chattemplate.h"

#include <QJsonObject>
#include <QString>
#include <memory>

namespace kvl {

// How samples become the token ids a model sees: the base layout (tasks/promptlayout.h)
// or an instruct model's chat template (tasks/chatpromptids.h, the kvpress convention).
// Default-constructed: the base layout ("none").
class PromptFormat
{
  public:
    PromptFormat() = default;

    // `choice` is "auto" (also when empty: the chat_template of MODELDIR/tokenizer_config.json when
    // it has one, else none), "none", or a Jinja template file (resolved against baseDir when
    // relative), which gets the special tokens of MODELDIR/tokenizer_config.json when there
    // is one. `vars` are template variables ({"enable_thinking": false}); the generation
    // prompt is always added. A template that does not parse, a file that cannot be read or
    // vars given without a template throw kvl::Error naming the file.
    static PromptFormat resolve(const QString& choice, const QString& modelDir,
                                const QJsonObject& vars = {}, const QString& baseDir = {});

    bool isChat() const { return m_template != nullptr; }
    const ChatTemplate& chatTemplate() const { return *m_template; }
    const ChatTemplate::Options& options() const { return m_options; }

    // What a run records: {"template": "none"} or {"template": FILE, "sha256": hex of the
    // template's source, "vars": {...}} (FILE: the template file, or the
    // tokenizer_config.json it came from).
    QJsonObject identity() const;
    // "none", or FILE and the first 12 hex digits of its sha256.
    QString describe() const;

  private:
    std::shared_ptr<const ChatTemplate> m_template;
    ChatTemplate::Options m_options;
    QJsonObject m_vars;
    QString m_sha256;
};

} // namespace kvl
