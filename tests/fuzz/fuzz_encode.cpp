// Encoding arbitrary text (UTF-8, and the same bytes as raw UTF-16 so lone surrogates
// reach the tokenizer) with the repository's trained byte-level tokenizer, then
// decoding the ids; offsets must stay inside the text.

#include "common/error.h"
#include "fuzztarget.h"
#include "tokenizer/tokenizer.h"

#include <memory>

namespace {

const kvl::Tokenizer& tokenizer()
{
    static const std::unique_ptr<kvl::Tokenizer> t =
        kvl::loadTokenizer(QStringLiteral(KVLENS_TEST_DATA "/tokenizer/trained_small.json"));
    return *t;
}

void check(const QString& text)
{
    const std::vector<int> ids = tokenizer().encode(text, true);
    for (const kvl::TokenSpan& span : tokenizer().encodeWithOffsets(text, false))
        if (span.begin < 0 || span.end < span.begin || span.end > text.size())
            __builtin_trap();
    tokenizer().decode(ids, false);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        check(QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)));
        check(QString(reinterpret_cast<const QChar*>(data), qsizetype(size / 2)));
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
