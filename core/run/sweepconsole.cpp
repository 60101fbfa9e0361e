#include "run/sweepconsole.h"

#include "common/jsonio.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace kvl {

namespace {
std::atomic<bool>* g_stopFlag = nullptr;

void onStopSignal(int signal)
{
    if (g_stopFlag)
        g_stopFlag->store(true);
    std::signal(signal, SIG_DFL); // the next one ends the process
}
} // namespace

SweepConsole::SweepConsole(bool jsonLines, bool bar)
    : m_jsonLines(jsonLines), m_bar(bar && isatty(fileno(stderr)) != 0)
{}

SweepConsole::~SweepConsole()
{
    finish();
}

void SweepConsole::report(const SweepProgress& progress)
{
    if (m_jsonLines) {
        const QByteArray line = toJsonLine(progress.toJson());
        std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
        if (!line.endsWith('\n'))
            std::fputc('\n', stdout);
        std::fflush(stdout);
    }
    if (m_bar) {
        const QByteArray bar = progress.toBar().toUtf8();
        std::fprintf(stderr, "\r\033[K%s", bar.constData());
        std::fflush(stderr);
        m_barDrawn = true;
    }
}

void SweepConsole::finish()
{
    if (m_barDrawn) {
        std::fputc('\n', stderr);
        std::fflush(stderr);
        m_barDrawn = false;
    }
}

void installStopSignals(std::atomic<bool>& flag)
{
    g_stopFlag = &flag;
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
}

} // namespace kvl
