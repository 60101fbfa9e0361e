#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// A problem with the choices of the New run dialog, shown next to the part it names.
struct NewRunProblem
{
    enum class Part
    {
        Model,
        Samples,
        Presses,
        Ratios,
        Options,
        Output
    };
    Part part;
    QString message;
};

// What the New run dialog asks for, as plain values: turned into the argument list
// of `kvlens-cli run`, checked before launch, and compared with the spec a run file
// holds (the CLI resumes a file of the same spec and refuses any other).
struct NewRunChoices
{
    QString model = QStringLiteral("bundled"); // "bundled" or a Hugging Face directory
    QStringList suites;                        // built-in suites (one -n/--tokens for all)
    int n = 10;
    QString tokens = QStringLiteral("256:512"); // MIN:MAX or N
    QString variant;                            // empty: each sample draws one
    QStringList datasets;                       // JSONL files
    QStringList presses;                        // press specs
    QStringList ratios;                         // as typed; numbers in [0, 1)
    qint64 seed = 1;
    QString interventions; // empty: the CLI's default (retained); none, retained, ...
    double beta = 4.0;
    QString storeAttention = QStringLiteral("failures"); // failures, all, none
    int maxNewTokens = 0;                                // 0: gold length + 16
    int threads = 0;                                     // 0: all cores
    QString out;

    bool operator==(const NewRunChoices&) const = default;

    // `run ...` (without the program), the options in a fixed order; options at
    // their CLI default are left out so the command stays short.
    QStringList arguments() const;
    // Everything that can be checked without the CLI; empty = ready (the dialog adds
    // the model and JSONL checks the CLI answers).
    QVector<NewRunProblem> problems() const;
    // The spec this run will record (the shape of ExperimentSpec::toJson), for the
    // comparison with an existing run file. Call only when problems() is empty.
    QJsonObject expectedSpec() const;
    // The choices that reproduce a recorded spec, for resuming a run from its file;
    // `why` says what the flags cannot express (then the choices are incomplete).
    static NewRunChoices fromSpec(const QJsonObject& spec, QString* why = nullptr);

    static const QStringList& interventionTargets(); // retained, low_ear, c_to_w, all
};

// MIN:MAX or N with 1 <= MIN <= MAX; false otherwise.
bool tokenRangeOf(const QString& text, int* min, int* max);

// One command line a POSIX shell reads back into exactly `program` and `args`.
QString shellCommand(const QString& program, const QStringList& args);

// What an output path holds, for the dialog: nothing yet, a run of this spec (resume),
// a run of another spec (refused), or a file that is not a run.
struct RunFileState
{
    enum class Kind
    {
        Absent,
        SameRun,
        OtherRun,
        NotARun
    };
    Kind kind = Kind::Absent;
    QString detail;      // the differing key (OtherRun) or the error (NotARun)
    QString status;      // running, finished, ... (SameRun, OtherRun)
    qint64 finished = 0; // samples stored
    QJsonObject spec;    // the recorded spec (SameRun, OtherRun)
};
RunFileState inspectRunFile(const QString& path, const QJsonObject& expectedSpec);

} // namespace kvl
