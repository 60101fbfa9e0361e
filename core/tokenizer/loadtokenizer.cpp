#include "tokenizer/bytetokenizer.h"
#include "tokenizer/hftokenizer.h"
#include "tokenizer/tokenizer.h"

namespace kvl {

std::unique_ptr<Tokenizer> loadTokenizer(const QString& path)
{
    if (path == QLatin1String("byte"))
        return std::make_unique<ByteTokenizer>();
    return HfTokenizer::load(path);
}

} // namespace kvl
