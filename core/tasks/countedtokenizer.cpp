#include "tasks/countedtokenizer.h"

#include "common/error.h"
#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

namespace kvl {

void checkCountedTokenizer(const Sample& sample, const QString& samplesPath,
                           const Tokenizer& tokenizer, const QString& tokenizerPath)
{
    const QJsonValue counted = sample.meta.value(kCountedTokenizerKey);
    const QString ours = tokenizer.identity();
    if (counted.isUndefined() || ours.isEmpty() || counted.toString() == ours)
        return;
    throw Error(samplesPath,
                QStringLiteral(
                    "sample '%1' was generated with another tokenizer (meta.%2 %3) than "
                    "the model's %4 (%5), so the token lengths it was generated for do not hold; "
                    "generate the samples with `kvlens-cli tasks generate --model DIR`")
                    .arg(sample.id, kCountedTokenizerKey,
                         counted.isString() ? counted.toString() : QStringLiteral("not a string"),
                         tokenizerPath, ours));
}

} // namespace kvl
