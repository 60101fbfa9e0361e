#pragma once

#include "chattemplate/jinjaast.h"
#include "chattemplate/jinjavalue.h"

#include <QDateTime>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace kvl {

struct ChatMessage
{
    QString role;
    QString content;
};

// A model's chat template, rendered exactly as Hugging Face transformers'
// apply_chat_template(tokenize=False) renders it: Jinja with trim_blocks and
// lstrip_blocks, tojson as json.dumps, raise_exception and strftime_now, the
// tokenizer's special tokens (bos_token, eos_token, ...) as variables, and tools and
// documents as None. A construct outside the supported Jinja subset is a kvl::Error
// naming the construct, the template line and the file, when the template is loaded
// or (for filters, tests and methods) when it is first used.
class ChatTemplate
{
  public:
    struct Options
    {
        bool addGenerationPrompt = false;
        jinja::Dict extra;              // e.g. enable_thinking
        std::function<QDateTime()> now; // strftime_now's clock; the local time if unset
    };

    ChatTemplate(const QString& source, const QString& origin);

    // tokenizer_config.json: its chat_template (a string, or a list of named templates,
    // of which "default" is used) and its special tokens. No chat_template is an error
    // that says so (a base model: use none).
    static ChatTemplate fromTokenizerConfig(const QString& path);
    // A template file (.jinja), with the special tokens of a tokenizer_config.json when
    // one is given.
    static ChatTemplate fromFile(const QString& path, const QString& tokenizerConfigPath = {});
    // The special-token variables transformers passes (special_tokens_map): each of
    // bos/eos/unk/sep/pad/cls/mask_token that the config sets, as its string.
    static jinja::Dict specialTokens(const QString& tokenizerConfigPath);

    void setSpecialTokens(jinja::Dict tokens) { m_specialTokens = std::move(tokens); }

    // `messages` is a list of {"role", "content", ...} dicts (see jinja::parseJson).
    // A conversation the template rejects, or one it cannot render, is a kvl::Error
    // naming the template's origin and the template's message.
    QString render(const jinja::Value& messages, const Options& options) const;
    QString render(const std::vector<ChatMessage>& messages, const Options& options) const;

    const QString& source() const { return m_source; }
    const QString& origin() const { return m_origin; }

  private:
    QString m_source;
    QString m_origin;
    std::shared_ptr<const jinja::Body> m_body;
    jinja::Dict m_specialTokens;
};

} // namespace kvl
