#include "newrunchoices.h"

#include "common/sweepwords.h"

#include "common/error.h"
#include "store/runreader.h"
#include "store/runspecdifference.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QObject>
#include <QRegularExpression>
#include <QSet>

namespace kvl {

namespace {

QString tr(const char* text)
{
    return QObject::tr(text);
}

QJsonArray interventionsJson(const QString& on, double beta)
{
    // The CLI writes "both" as a boost and a sham entry (ExperimentSpec::fromJson).
    if (on == QLatin1String("none"))
        return {};
    const QString target = on.isEmpty() ? QStringLiteral("retained") : on;
    const double b = on.isEmpty() ? 4.0 : beta;
    QJsonArray list;
    for (const char* kind : {"boost", "sham"})
        list.append(QJsonObject{{QStringLiteral("beta"), b},
                                {QStringLiteral("kind"), QLatin1String(kind)},
                                {QStringLiteral("on"), target}});
    return list;
}

} // namespace

const QStringList& NewRunChoices::interventionTargets()
{
    static const QStringList targets{QStringLiteral("retained"), QStringLiteral("low_ear"),
                                     QStringLiteral("c_to_w"), QStringLiteral("all")};
    return targets;
}

bool tokenRangeOf(const QString& text, int* min, int* max)
{
    const QStringList parts = text.trimmed().split(QLatin1Char(':'));
    bool ok1 = false, ok2 = true;
    const int a = parts.value(0).trimmed().toInt(&ok1);
    const int b = parts.size() == 2 ? parts[1].trimmed().toInt(&ok2) : a;
    if (parts.size() > 2 || !ok1 || !ok2 || a < 1 || b < a)
        return false;
    if (min)
        *min = a;
    if (max)
        *max = b;
    return true;
}

QStringList NewRunChoices::arguments() const
{
    QStringList args{QStringLiteral("run"), QStringLiteral("--model"), model.trimmed()};
    if (!suites.isEmpty()) {
        args << QStringLiteral("--suite") << suites.join(QLatin1Char(',')) << QStringLiteral("-n")
             << QString::number(n) << QStringLiteral("--tokens") << tokens.trimmed();
        if (!variant.isEmpty())
            args << QStringLiteral("--variant") << variant;
    }
    for (const QString& f : datasets)
        args << QStringLiteral("--dataset") << f;
    // One --press per spec: a spec's own parameters hold commas.
    for (const QString& p : presses)
        args << QStringLiteral("--press") << p.trimmed();
    QStringList r;
    for (const QString& x : ratios)
        if (!x.trimmed().isEmpty())
            r << x.trimmed();
    if (!r.isEmpty())
        args << QStringLiteral("--ratios") << r.join(QLatin1Char(','));
    if (seed != 1)
        args << QStringLiteral("--seed") << QString::number(seed);
    if (!interventions.isEmpty()) {
        args << QStringLiteral("--interventions") << interventions;
        if (interventions != QLatin1String("none") && beta != 4.0)
            args << QStringLiteral("--beta") << QString::number(beta);
    }
    if (storeAttention != QLatin1String("failures"))
        args << QStringLiteral("--store-attention") << storeAttention;
    if (maxNewTokens > 0)
        args << QStringLiteral("--max-new-tokens") << QString::number(maxNewTokens);
    if (threads > 0)
        args << QStringLiteral("--threads") << QString::number(threads);
    args << QStringLiteral("--out") << out.trimmed();
    return args;
}

QVector<NewRunProblem> NewRunChoices::problems() const
{
    using sweepwords::asSentence;
    using Part = NewRunProblem::Part;
    QVector<NewRunProblem> out_;
    const auto add = [&out_](Part part, const QString& message) { out_.append({part, message}); };
    if (model.trimmed().isEmpty())
        add(Part::Model, tr("Choose the bundled model or a model directory."));

    if (suites.isEmpty() && datasets.isEmpty())
        add(Part::Samples, tr("Choose a built-in suite or add a JSONL file."));
    if (!suites.isEmpty()) {
        if (n < 1)
            add(Part::Samples, tr("Samples per suite must be at least 1."));
        if (!tokenRangeOf(tokens, nullptr, nullptr))
            add(Part::Samples, asSentence(sweepwords::badTokenRange(tokens)));
    }
    QSet<QString> files;
    for (const QString& f : datasets) {
        if (!QFileInfo(f).isFile())
            add(Part::Samples, tr("%1: no such file.").arg(f));
        if (files.contains(QFileInfo(f).absoluteFilePath()))
            add(Part::Samples, tr("%1 is listed twice.").arg(f));
        files.insert(QFileInfo(f).absoluteFilePath());
    }

    QSet<QString> names;
    for (const QString& p : presses) {
        const QString spec = p.trimmed();
        if (spec.isEmpty())
            add(Part::Presses, tr("An empty press spec."));
        else if (names.contains(spec))
            add(Part::Presses, asSentence(sweepwords::listedTwice(spec)));
        names.insert(spec);
    }

    QVector<double> seen;
    for (const QString& x : ratios) {
        if (x.trimmed().isEmpty())
            continue;
        bool ok = false;
        const double r = x.trimmed().toDouble(&ok);
        if (!ok)
            add(Part::Ratios, asSentence(sweepwords::notANumber(x)));
        else if (r < 0.0 || r >= 1.0)
            add(Part::Ratios, asSentence(sweepwords::ratioOutOfRange(x)));
        else if (seen.contains(r))
            add(Part::Ratios, asSentence(sweepwords::listedTwice(x)));
        else
            seen << r;
    }
    if (!presses.isEmpty() && seen.isEmpty())
        add(Part::Ratios, asSentence(sweepwords::pressesNeedRatios()));

    if (!interventions.isEmpty() && interventions != QLatin1String("none") &&
        !interventionTargets().contains(interventions))
        add(Part::Options, tr("Unknown intervention target '%1'.").arg(interventions));
    if (!(beta > 0.0))
        add(Part::Options, tr("The boost factor must be positive."));
    if (!QStringList{QStringLiteral("failures"), QStringLiteral("all"), QStringLiteral("none")}
             .contains(storeAttention))
        add(Part::Options, tr("Unknown attention storage '%1'.").arg(storeAttention));

    const QString path = out.trimmed();
    if (path.isEmpty())
        add(Part::Output, tr("Choose a run file to write."));
    else if (QFileInfo(path).isDir())
        add(Part::Output, tr("%1 is a folder; choose a file.").arg(path));
    else if (!QFileInfo(QFileInfo(path).absolutePath()).isDir())
        add(Part::Output, tr("Folder %1 does not exist.").arg(QFileInfo(path).absolutePath()));
    return out_;
}

QJsonObject NewRunChoices::expectedSpec() const
{
    QJsonArray samples;
    int lo = 0, hi = 0;
    tokenRangeOf(tokens, &lo, &hi);
    for (const QString& suite : suites)
        samples.append(
            QJsonObject{{QStringLiteral("suite"), suite},
                        {QStringLiteral("n"), n},
                        {QStringLiteral("tokens"), QStringLiteral("%1:%2").arg(lo).arg(hi)},
                        {QStringLiteral("seed"), double(seed)},
                        {QStringLiteral("variant"), variant}});
    for (const QString& f : datasets)
        samples.append(QJsonObject{{QStringLiteral("jsonl"), f}});
    QJsonArray compressors;
    for (const QString& p : presses)
        compressors.append(QJsonObject{{QStringLiteral("name"), p.trimmed()},
                                       {QStringLiteral("spec"), p.trimmed()}});
    QJsonArray ratiosJson;
    for (const QString& x : ratios)
        if (!x.trimmed().isEmpty())
            ratiosJson.append(x.trimmed().toDouble());
    return {{QStringLiteral("model"), model.trimmed()},
            {QStringLiteral("samples"), samples},
            {QStringLiteral("compressors"), compressors},
            {QStringLiteral("ratios"), ratiosJson},
            {QStringLiteral("interventions"), interventionsJson(interventions, beta)},
            {QStringLiteral("seed"), double(seed)},
            {QStringLiteral("threads"), threads},
            {QStringLiteral("max_new_tokens"), maxNewTokens},
            {QStringLiteral("store"), QJsonObject{{QStringLiteral("masks"), QStringLiteral("all")},
                                                  {QStringLiteral("attention"), storeAttention}}}};
}

NewRunChoices NewRunChoices::fromSpec(const QJsonObject& spec, QString* why)
{
    NewRunChoices c;
    QStringList limits;
    c.model = spec.value(QLatin1String("model")).toString();
    c.seed = qint64(spec.value(QLatin1String("seed")).toDouble(1));
    bool firstSuite = true;
    for (const QJsonValue& v : spec.value(QLatin1String("samples")).toArray()) {
        const QJsonObject s = v.toObject();
        if (s.contains(QLatin1String("jsonl"))) {
            c.datasets << s.value(QLatin1String("jsonl")).toString();
            continue;
        }
        const int n = s.value(QLatin1String("n")).toInt();
        const QString tokens = s.value(QLatin1String("tokens")).toString();
        const QString variant = s.value(QLatin1String("variant")).toString();
        const qint64 seed = qint64(s.value(QLatin1String("seed")).toDouble(double(c.seed)));
        if (firstSuite) {
            c.n = n;
            c.tokens = tokens;
            c.variant = variant;
        } else if (n != c.n || tokens != c.tokens || variant != c.variant) {
            limits << tr("suites with different sample counts, lengths or variants");
        }
        if (seed != c.seed)
            limits << tr("a suite seed other than the run's seed");
        firstSuite = false;
        c.suites << s.value(QLatin1String("suite")).toString();
    }
    for (const QJsonValue& v : spec.value(QLatin1String("compressors")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString name = o.value(QLatin1String("name")).toString();
        const QString pressSpec = o.value(QLatin1String("spec")).toString();
        if (name != pressSpec)
            limits << tr("a press named apart from its spec (%1)").arg(name);
        c.presses << pressSpec;
    }
    c.ratios.clear();
    for (const QJsonValue& v : spec.value(QLatin1String("ratios")).toArray())
        c.ratios << QString::number(v.toDouble());
    const QJsonArray interventions = spec.value(QLatin1String("interventions")).toArray();
    if (interventions.isEmpty()) {
        c.interventions = QStringLiteral("none");
    } else {
        const QJsonObject first = interventions.first().toObject();
        c.interventions = first.value(QLatin1String("on")).toString();
        c.beta = first.value(QLatin1String("beta")).toDouble(4.0);
        if (interventions != interventionsJson(c.interventions, c.beta))
            limits << tr("interventions other than boost and sham on one target");
        if (c.interventions == QLatin1String("retained") && c.beta == 4.0)
            c.interventions.clear(); // the CLI default, written as no flag
    }
    c.maxNewTokens = spec.value(QLatin1String("max_new_tokens")).toInt();
    c.threads = spec.value(QLatin1String("threads")).toInt();
    const QJsonObject store = spec.value(QLatin1String("store")).toObject();
    c.storeAttention = store.value(QLatin1String("attention")).toString(c.storeAttention);
    if (store.value(QLatin1String("masks")).toString(QStringLiteral("all")) != QLatin1String("all"))
        limits << tr("masks stored for some rows only");
    if (spec.value(QLatin1String("chat_template")).toString(QStringLiteral("auto")) !=
            QLatin1String("auto") ||
        !spec.value(QLatin1String("chat_vars")).toObject().isEmpty())
        limits << tr("a chat template or its variables");
    limits.removeDuplicates();
    if (why)
        *why = limits.join(QStringLiteral("; "));
    return c;
}

QString shellCommand(const QString& program, const QStringList& args)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList words;
    for (const QString& a : QStringList{program} + args) {
        if (!a.isEmpty() && plain.match(a).hasMatch())
            words << a;
        else
            words << QLatin1Char('\'') +
                         QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")) +
                         QLatin1Char('\'');
    }
    return words.join(QLatin1Char(' '));
}

RunFileState inspectRunFile(const QString& path, const QJsonObject& expectedSpec)
{
    RunFileState state;
    if (path.trimmed().isEmpty() || !QFileInfo::exists(path))
        return state;
    try {
        RunReader reader(path);
        const RunInfo info = reader.runInfo();
        state.status = info.status;
        state.spec = info.spec;
        state.finished = qint64(reader.completedSampleKeys().size());
        if (info.spec.isEmpty()) {
            // Created but cancelled before the spec was written: the CLI writes it anew.
            state.kind = RunFileState::Kind::SameRun;
            return state;
        }
        state.detail = runSpecDifference(info.spec, expectedSpec);
        state.kind =
            state.detail.isEmpty() ? RunFileState::Kind::SameRun : RunFileState::Kind::OtherRun;
    } catch (const Error& e) {
        state.kind = RunFileState::Kind::NotARun;
        state.detail = e.message();
    }
    return state;
}

} // namespace kvl
