// Standalone driver for the fuzz targets when libFuzzer is not used: replays files and
// folders given on the command line through LLVMFuzzerTestOneInput, or, with
// --mutate SECONDS, mutates those inputs at random for that long (no coverage
// feedback: a cheap stand-in for libFuzzer that works with gcc and the sanitizers).
// As libFuzzer's -max_len, --max-len BYTES (default 32 KiB) bounds what is mutated:
// larger corpus entries (the limit tests: 200,000 nested brackets and the like) are
// replayed, not mutated, and a mutant past the bound is cut to it. Mutating them would
// spend most of the run lexing the same huge input, for no new paths.
// A crashing input is saved as crash-<target>-<n>.bin in the working directory before
// the process dies, so it can be added to the corpus.

#include "fuzztarget.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#include <sanitizer/common_interface_defs.h>
#define KVLENS_FUZZ_HAS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define KVLENS_FUZZ_HAS_SANITIZER 1
#endif
#endif

namespace {

// The input being run, for the death handlers (which may only use plain memory). Never
// destroyed: LeakSanitizer's check runs at exit, after static destructors, and its death
// callback saves this input (a global vector would be freed by then).
std::vector<uint8_t>& g_current = *new std::vector<uint8_t>;
char g_crashPath[512] = "crash.bin";

void saveCurrentInput()
{
    const int fd = ::open(g_crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    size_t done = 0;
    while (done < g_current.size()) {
        const ssize_t n = ::write(fd, g_current.data() + done, g_current.size() - done);
        if (n <= 0)
            break;
        done += size_t(n);
    }
    ::close(fd);
    const char msg[] = "fuzz: the crashing input was saved to ";
    [[maybe_unused]] ssize_t w = ::write(2, msg, sizeof msg - 1);
    w = ::write(2, g_crashPath, strlen(g_crashPath));
    w = ::write(2, "\n", 1);
}

void onSignal(int sig)
{
    saveCurrentInput();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void installDeathHandlers(const char* argv0)
{
    const std::string target = QFileInfo(QString::fromLocal8Bit(argv0)).fileName().toStdString();
    std::snprintf(g_crashPath, sizeof g_crashPath, "crash-%s-%d.bin", target.c_str(),
                  int(getpid()));
    for (const int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
        std::signal(sig, onSignal);
#ifdef KVLENS_FUZZ_HAS_SANITIZER
    __sanitizer_set_death_callback(saveCurrentInput);
#endif
}

void runOne(const QByteArray& bytes)
{
    g_current.assign(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(g_current.data(), g_current.size());
}

std::vector<QByteArray> collectInputs(const QStringList& paths, QStringList& names)
{
    std::vector<QByteArray> inputs;
    for (const QString& path : paths) {
        QStringList files;
        if (QFileInfo(path).isDir()) {
            QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
            files.sort();
        } else {
            files << path;
        }
        for (const QString& file : files) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr, "fuzz: cannot read %s\n", qPrintable(file));
                std::exit(2);
            }
            inputs.push_back(f.readAll());
            names << file;
        }
    }
    return inputs;
}

// Tokens that matter to the formats fuzzed here (JSON, Jinja, safetensors headers).
const char* const kDictionary[] = {"{",
                                   "}",
                                   "[",
                                   "]",
                                   "\"",
                                   ":",
                                   ",",
                                   "null",
                                   "0",
                                   "-1",
                                   "1e308",
                                   "4294967296",
                                   "9223372036854775807",
                                   "-9223372036854775808",
                                   "{{",
                                   "}}",
                                   "{%",
                                   "%}",
                                   "{#",
                                   "#}",
                                   "for",
                                   "endfor",
                                   "if",
                                   "endif",
                                   "set",
                                   "macro",
                                   "loop",
                                   "|",
                                   ".",
                                   "\\u0000",
                                   "\\ud800",
                                   "\xff",
                                   "\xc3",
                                   "\xe2\x96\x81",
                                   "F32",
                                   "BF16",
                                   "shape",
                                   "data_offsets",
                                   "dtype",
                                   "__metadata__",
                                   "SQLite format 3",
                                   "\n"};

QByteArray mutate(const QByteArray& base, const std::vector<QByteArray>& corpus,
                  std::mt19937_64& rng)
{
    QByteArray out = base;
    const int steps = 1 + int(rng() % 4);
    for (int s = 0; s < steps; ++s) {
        const qsizetype n = out.size();
        const auto at = [&](qsizetype extra) { return qsizetype(rng() % uint64_t(n + extra)); };
        switch (rng() % 7) {
        case 0: // flip a bit
            if (n > 0)
                out[at(0)] ^= char(1u << (rng() % 8));
            break;
        case 1: // set a random byte
            if (n > 0)
                out[at(0)] = char(rng() % 256);
            break;
        case 2: { // erase a run
            if (n == 0)
                break;
            const qsizetype pos = at(0);
            out.remove(pos, qsizetype(1 + rng() % std::min<uint64_t>(uint64_t(n - pos), 16)));
            break;
        }
        case 3: { // insert a dictionary token
            const char* token = kDictionary[rng() % (sizeof kDictionary / sizeof *kDictionary)];
            out.insert(at(1), token);
            break;
        }
        case 4: { // duplicate a run
            if (n == 0)
                break;
            const qsizetype pos = at(0);
            const qsizetype len = qsizetype(1 + rng() % std::min<uint64_t>(uint64_t(n - pos), 64));
            out.insert(at(1), out.mid(pos, len));
            break;
        }
        case 5: { // splice in a piece of another input
            const QByteArray& other = corpus[rng() % corpus.size()];
            if (other.isEmpty())
                break;
            const qsizetype pos = qsizetype(rng() % uint64_t(other.size()));
            const qsizetype len =
                qsizetype(1 + rng() % std::min<uint64_t>(uint64_t(other.size() - pos), 128));
            out.insert(at(1), other.mid(pos, len));
            break;
        }
        case 6: // truncate
            if (n > 0)
                out.truncate(at(0));
            break;
        }
    }
    return out;
}

int usage()
{
    std::fprintf(stderr, "usage: <fuzz target> [--mutate SECONDS] [--seed N] [--max-len BYTES] "
                         "FILE|DIR...\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    installDeathHandlers(argv[0]);
    double seconds = 0;
    uint64_t seed = 1;
    qsizetype maxLen = 32 * 1024;
    QStringList paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mutate" && i + 1 < argc)
            seconds = std::atof(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--max-len" && i + 1 < argc)
            maxLen = std::max<qsizetype>(1, std::atoll(argv[++i]));
        else if (!arg.empty() && arg[0] == '-')
            return usage();
        else
            paths << QString::fromLocal8Bit(argv[i]);
    }
    if (paths.isEmpty())
        return usage();
    QStringList names;
    const std::vector<QByteArray> corpus = collectInputs(paths, names);
    if (corpus.empty()) {
        std::fprintf(stderr, "fuzz: no inputs\n");
        return 2;
    }
    const bool verbose = qEnvironmentVariableIsSet("KVLENS_FUZZ_VERBOSE");
    for (size_t i = 0; i < corpus.size(); ++i) {
        if (verbose)
            std::fprintf(stderr, "input: %s\n", qPrintable(names[qsizetype(i)]));
        runOne(corpus[i]);
    }
    std::printf("fuzz: replayed %zu inputs\n", corpus.size());
    if (seconds <= 0)
        return 0;

    // Mutation loop: each new input starts from a corpus entry within --max-len or a
    // recent mutant that did not crash (a little memory of where the random walk has been).
    std::mt19937_64 rng(seed);
    std::vector<QByteArray> pool;
    for (const QByteArray& input : corpus)
        if (input.size() <= maxLen)
            pool.push_back(input);
    if (pool.empty())
        pool.push_back(corpus.front().left(maxLen));
    const size_t seeds = pool.size();
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    uint64_t executions = 0;
    while (std::chrono::steady_clock::now() < end) {
        for (int k = 0; k < 64; ++k, ++executions) {
            QByteArray input = mutate(pool[rng() % pool.size()], corpus, rng);
            if (input.size() > maxLen)
                input.truncate(maxLen);
            runOne(input);
            if (rng() % 8 == 0) {
                if (pool.size() < seeds + 256)
                    pool.push_back(input);
                else
                    pool[seeds + rng() % 256] = input;
            }
        }
    }
    std::printf("fuzz: %llu mutated executions in %.0f s, seed %llu, no crash\n",
                static_cast<unsigned long long>(executions), seconds,
                static_cast<unsigned long long>(seed));
    return 0;
}
