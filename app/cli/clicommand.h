#pragma once

#include <QStringList>
#include <vector>

namespace kvl::cli {

// A subcommand receives its own arguments (argv after the subcommand name, with
// the program name in front so QCommandLineParser can use them as they are) and
// returns the process exit code. It throws kvl::Error for bad input; main()
// prints the message and exits non-zero.
using CommandFn = int (*)(const QStringList& args);

struct CommandInfo
{
    const char* name;
    const char* summary;
    CommandFn run;
};

const std::vector<CommandInfo>& commands();

// Static instances of this register a command at start-up, one per command file.
class CommandRegistrar
{
  public:
    CommandRegistrar(const char* name, const char* summary, CommandFn run);
};

} // namespace kvl::cli
