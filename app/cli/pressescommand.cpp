// `kvlens-cli presses [--json]`: every compressor with its parameters (default, type,
// the range or choices its factory enforces) and one-line rule, as the catalog builds them.
#include "clicommand.h"
#include "clioutput.h"

#include "compressors/presscatalog.h"

#include <QCommandLineParser>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runPresses(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Lists the compressors (presses): spec syntax name(inner):param=value,..."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("print JSON")});
    parser.process(args);

    const PressCatalog catalog;
    if (parser.isSet(QStringLiteral("json"))) {
        printJson({{QStringLiteral("syntax"),
                    QStringLiteral("name[(inner[+inner...])][:param=value,...]")},
                   {QStringLiteral("presses"), catalog.toJson()}});
        return 0;
    }
    printLine(QStringLiteral("spec: name[(inner[+inner...])][:param=value,...]  e.g. "
                             "adakv(snapkv:window=64):alpha_safeguard=0.2"));
    for (const PressEntry& e : catalog.entries()) {
        QString head = e.name;
        if (!e.inner.isEmpty())
            head += QStringLiteral("(%1)").arg(e.inner);
        printLine(QStringLiteral("%1  [%2]  %3").arg(head, pressKindName(e.kind), e.rule));
        if (!e.unavailable.isEmpty())
            printLine(QStringLiteral("    NOT AVAILABLE: %1").arg(e.unavailable));
        const std::vector<ParamRule> rules = catalog.paramRules(e);
        for (const PressEntry::Param& p : e.params) {
            // The type and the range the press enforces: [int 1..1001], [choice max|mean].
            QString accepts;
            for (const ParamRule& r : rules) {
                if (r.name != p.name)
                    continue;
                accepts = paramTypeName(r.type);
                if (r.type == ParamRule::Type::Choice)
                    accepts += u' ' + r.choices.join(u'|');
                else if (r.type == ParamRule::Type::Integer || r.type == ParamRule::Type::Real ||
                         r.type == ParamRule::Type::Reals)
                    accepts += QStringLiteral(" %1..%2").arg(QString::number(r.min, 'g', 12),
                                                             QString::number(r.max, 'g', 12));
            }
            printLine(QStringLiteral("    %1=%2  [%3]  %4")
                          .arg(p.name,
                               p.defaultValue.isEmpty() ? QStringLiteral("(none)") : p.defaultValue,
                               accepts, p.help));
        }
    }
    return 0;
}

const CommandRegistrar pressesCommand("presses", "list the compressors with parameters and rules",
                                      &runPresses);

} // namespace
} // namespace kvl::cli
