// Chat templates: parse an arbitrary template (ChatTemplate) and render a fixed
// conversation with it, with and without the generation prompt.

#include "chattemplate/chattemplate.h"
#include "common/error.h"
#include "fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<kvl::ChatMessage> conversation = {
        {QStringLiteral("system"), QStringLiteral("Be brief.")},
        {QStringLiteral("user"), QStringLiteral("Where is the key?")},
        {QStringLiteral("assistant"), QStringLiteral("Under the mat.")},
        {QStringLiteral("user"), QString::fromUtf8("Und jetzt? \xf0\x9f\x99\x82")}};
    try {
        kvl::ChatTemplate tmpl(
            QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)),
            QStringLiteral("fuzz.jinja"));
        kvl::jinja::Dict tokens;
        tokens.set(QStringLiteral("bos_token"), kvl::jinja::Value::string(QStringLiteral("<s>")));
        tokens.set(QStringLiteral("eos_token"), kvl::jinja::Value::string(QStringLiteral("</s>")));
        tmpl.setSpecialTokens(tokens);
        kvl::ChatTemplate::Options options;
        options.now = [] { return QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5)); };
        tmpl.render(conversation, options);
        options.addGenerationPrompt = true;
        tmpl.render(conversation, options);
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
