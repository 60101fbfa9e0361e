#include "runimport/kvpressscoring.h"
#include "runimport/kvpressyaml.h"

#include "tasks/exactmatch.h"

#include <QHash>

namespace kvl {

namespace {
// kvpress's RULER scorer strips the prediction, removes the control characters
// \x00-\x1f and strips it again before matching.
QString rulerCleaned(const QString& prediction)
{
    QString s = prediction.trimmed();
    s.removeIf([](QChar c) { return c.unicode() < 0x20; });
    return s.trimmed();
}

// The text of a \boxed{...} as kvpress's aime25 and math500 scorers cut it: after the
// last (aime25) or first (math500) "boxed{", up to the next '}'. aime25 takes the whole
// prediction when there is no "boxed{" (Python's split()[-1]); math500 then has none.
std::optional<QString> boxed(const QString& prediction, bool last)
{
    const QString open = QStringLiteral("boxed{");
    const qsizetype at = last ? prediction.lastIndexOf(open) : prediction.indexOf(open);
    if (at < 0 && !last)
        return std::nullopt;
    const QString after = at < 0 ? prediction : prediction.mid(at + open.size());
    return after.section(QLatin1Char('}'), 0, 0);
}

KvpressRowScore binary(bool correct)
{
    return {correct, correct ? 1.0 : 0.0};
}

// Python string-literal escapes, as repr() writes them.
bool readEscape(const QString& s, qsizetype& i, QString& out)
{
    static const QHash<QChar, QChar> simple = {{QLatin1Char('n'), QLatin1Char('\n')},
                                               {QLatin1Char('t'), QLatin1Char('\t')},
                                               {QLatin1Char('r'), QLatin1Char('\r')},
                                               {QLatin1Char('\\'), QLatin1Char('\\')},
                                               {QLatin1Char('\''), QLatin1Char('\'')},
                                               {QLatin1Char('"'), QLatin1Char('"')},
                                               {QLatin1Char('0'), QChar(0)}};
    const QChar e = s[i];
    if (simple.contains(e)) {
        out += simple.value(e);
        return true;
    }
    return appendCodePointEscape(s, i, out);
}

// One element at `i`: a quoted Python string or a bare token (a number).
std::optional<QString> readElement(const QString& s, qsizetype& i)
{
    const QChar q = s[i];
    if (q != QLatin1Char('\'') && q != QLatin1Char('"')) {
        const qsizetype start = i;
        while (i < s.size() && !s[i].isSpace() && s[i] != QLatin1Char(',') &&
               s[i] != QLatin1Char(']'))
            ++i;
        return s.mid(start, i - start);
    }
    QString out;
    for (++i; i < s.size(); ++i) {
        if (s[i] == q) {
            ++i;
            return out;
        }
        if (s[i] == QLatin1Char('\\') && i + 1 < s.size()) {
            ++i;
            if (!readEscape(s, i, out))
                return std::nullopt;
        } else {
            out += s[i];
        }
    }
    return std::nullopt; // the quote never closes
}
} // namespace

KvpressScoring kvpressScoringFor(const QString& dataset)
{
    const QString file = QStringLiteral("kvpress evaluation/benchmarks/%1/calculate_metrics.py");
    if (dataset == QLatin1String("ruler"))
        return {KvpressRule::RulerStringMatch, QStringLiteral("answer"), true,
                QStringLiteral("string_match_part (qa_* tasks) / string_match_all (others) as %1; "
                               "correct = every reference found (part: one found); score = the "
                               "row's match value")
                    .arg(file.arg(dataset))};
    if (dataset == QLatin1String("needle_in_haystack"))
        return {
            KvpressRule::NeedleContained, QStringLiteral("needle"), false,
            QStringLiteral("kvpress scores it by ROUGE (%1): score = that row's ROUGE-L F from "
                           "metrics.json; correct = the needle, normalized, is contained in the "
                           "normalized prediction (KVLens's rule, not kvpress's)")
                .arg(file.arg(dataset))};
    if (dataset == QLatin1String("longbench-v2"))
        return {
            KvpressRule::LongBenchV2, QStringLiteral("answer"), false,
            QStringLiteral("'The correct answer is (X)' or '... is X' in the prediction with '*' "
                           "removed, as %1")
                .arg(file.arg(QStringLiteral("longbenchv2")))};
    if (dataset == QLatin1String("aime25") || dataset == QLatin1String("math500"))
        return {dataset == QLatin1String("aime25") ? KvpressRule::BoxedLast
                                                   : KvpressRule::BoxedFirst,
                QStringLiteral("answer"), false,
                QStringLiteral("the \\boxed{} answer equals the gold answer, as %1")
                    .arg(file.arg(dataset))};
    // LongBench keeps its gold answers as a list in `answers`; InfiniteBench's `answer`
    // may be a list too (a cell that is no list literal is read as one answer).
    const bool longbench =
        dataset == QLatin1String("longbench") || dataset == QLatin1String("longbench-e");
    return {
        KvpressRule::ExactMatch, longbench ? QStringLiteral("answers") : QStringLiteral("answer"),
        false,
        QStringLiteral("exact match after KVLens's normalization (core/tasks/exactmatch.h) against "
                       "any gold answer; kvpress scores it otherwise (%1)")
            .arg(file.arg(dataset == QLatin1String("infinitebench")
                              ? QStringLiteral("infinite_bench")
                          : longbench ? QStringLiteral("longbench")
                                      : dataset))};
}

bool rulerTaskUsesPartMatch(const QString& task)
{
    return task.section(QLatin1Char('_'), 0, 0) == QLatin1String("qa");
}

double rulerStringMatch(const QString& prediction, const QStringList& references, bool part)
{
    if (references.isEmpty())
        return 0.0;
    const QString pred = rulerCleaned(prediction).toLower();
    int found = 0;
    for (const QString& r : references)
        if (pred.contains(r.toLower()))
            ++found;
    if (part)
        return found > 0 ? 1.0 : 0.0;
    return double(found) / double(references.size());
}

KvpressRowScore scoreKvpressRow(KvpressRule rule, const QString& prediction,
                                const QStringList& gold, const QString& task)
{
    switch (rule) {
    case KvpressRule::RulerStringMatch: {
        const double v = rulerStringMatch(prediction, gold, rulerTaskUsesPartMatch(task));
        return {v == 1.0, v};
    }
    case KvpressRule::NeedleContained: {
        const QString needle = gold.value(0);
        return {!needle.trimmed().isEmpty() &&
                    normalizeAnswer(prediction).contains(normalizeAnswer(needle)),
                std::nullopt};
    }
    case KvpressRule::LongBenchV2: {
        const QString p = QString(prediction).remove(QLatin1Char('*'));
        const QString x = gold.value(0);
        return binary(p.contains(QStringLiteral("The correct answer is (%1)").arg(x)) ||
                      p.contains(QStringLiteral("The correct answer is %1").arg(x)));
    }
    case KvpressRule::BoxedLast:
    case KvpressRule::BoxedFirst: {
        const auto b = boxed(prediction, rule == KvpressRule::BoxedLast);
        return binary(b && *b == gold.value(0));
    }
    case KvpressRule::ExactMatch:
        for (const QString& g : gold)
            if (exactMatch(prediction, g) == 1.0)
                return binary(true);
        return binary(false);
    }
    return {};
}

std::optional<QStringList> parsePythonStringList(const QString& cell)
{
    const QString s = cell.trimmed();
    if (!s.startsWith(QLatin1Char('[')) || !s.endsWith(QLatin1Char(']')))
        return std::nullopt;
    QStringList out;
    qsizetype i = 1;
    const qsizetype end = s.size() - 1;
    while (true) {
        // numpy separates elements by spaces (and line breaks when long), Python by ", ".
        while (i < end && (s[i].isSpace() || s[i] == QLatin1Char(',')))
            ++i;
        if (i >= end)
            break;
        const auto element = readElement(s, i);
        if (!element || i > end)
            return std::nullopt;
        out << *element;
    }
    return out;
}

} // namespace kvl
