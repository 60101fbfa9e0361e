#include "compressors/modelpassinput.h"

#include "common/error.h"

namespace kvl {

void requireModelPass(const CompressionInput& input, const QString& spec, const QString& pressName,
                      bool needsRepeatPrompts)
{
    if (input.model == nullptr || input.contextIds == nullptr ||
        (needsRepeatPrompts && input.repeatPrompts == nullptr))
        throw Error(QStringLiteral("press '%1'").arg(spec),
                    needsRepeatPrompts
                        ? QStringLiteral("%1 re-reads the context with the model and needs the "
                                         "model, the context's token ids and the tokenized repeat "
                                         "prompts (CompressionInput::model, contextIds, "
                                         "repeatPrompts); this caller gives only the prefill")
                              .arg(pressName)
                        : QStringLiteral("%1 re-reads the context with the model and needs the "
                                         "model and the context's token ids "
                                         "(CompressionInput::model, contextIds); this caller "
                                         "gives only the prefill")
                              .arg(pressName));
    if (int64_t(input.contextIds->size()) != input.length())
        throw Error(QStringLiteral("press '%1'").arg(spec),
                    QStringLiteral("the context has %1 token ids but its cache %2 entries")
                        .arg(input.contextIds->size())
                        .arg(input.length()));
}

} // namespace kvl
