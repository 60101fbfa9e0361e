#include "store/samplematching.h"

#include <QCryptographicHash>

#include <algorithm>
#include <map>
#include <set>

namespace kvl {

namespace {

QByteArray sha256(const QString& text)
{
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256);
}

QByteArray storedTextHash(const QJsonObject& meta, const char* field)
{
    const QJsonValue v = meta.value(QLatin1String(field));
    return v.isString() ? sha256(v.toString()) : QByteArray();
}

// English, as the store's other messages (the CLI prints them too).
QString msg(const char* text)
{
    return QString::fromUtf8(text);
}

// A gold answer short enough to name in a reason.
QString quoted(const QString& answer)
{
    const QString shown = answer.size() > 40 ? answer.left(37) + QStringLiteral("...") : answer;
    return QLatin1Char('\'') + shown + QLatin1Char('\'');
}

QString whyDifferent(const SampleContent& a, const SampleContent& b, const SampleInfo& sa,
                     const SampleInfo& sb)
{
    QStringList why;
    if (a.suite != b.suite)
        why << msg("suite differs (%1 vs %2)").arg(a.suite, b.suite);
    if (a.answer != b.answer)
        why << msg("answer differs (%1 vs %2)").arg(quoted(sa.gold), quoted(sb.gold));
    if (!a.context.isEmpty() && !b.context.isEmpty() && a.context != b.context)
        why << msg("context differs (%1 vs %2 tokens)").arg(a.contextLen).arg(b.contextLen);
    if (!a.question.isEmpty() && !b.question.isEmpty() && a.question != b.question)
        why << msg("question differs");
    if (why.isEmpty()) // differs only in a field one of them does not store
        why << msg("content differs");
    return why.join(QStringLiteral("; "));
}

bool allStore(const std::vector<SampleContent>& contents, QByteArray SampleContent::*field)
{
    return std::all_of(contents.begin(), contents.end(),
                       [field](const SampleContent& c) { return !(c.*field).isEmpty(); });
}

} // namespace

SampleContent sampleContent(const SampleInfo& sample)
{
    SampleContent c;
    c.key = sample.key;
    c.suite = sample.suite;
    c.context = storedTextHash(sample.meta, "context");
    c.question = storedTextHash(sample.meta, "question");
    c.answer = sha256(sample.gold);
    c.contextLen = sample.contextLen;
    return c;
}

std::optional<QString> SampleMatching::keyInB(const QString& keyA) const
{
    for (const SamplePair& p : matched)
        if (p.keyA == keyA)
            return p.keyB;
    return std::nullopt;
}

std::optional<QString> SampleMatching::keyInA(const QString& keyB) const
{
    for (const SamplePair& p : matched)
        if (p.keyB == keyB)
            return p.keyA;
    return std::nullopt;
}

QString SampleMatching::summary(const QString& nameA, const QString& nameB) const
{
    QString s = msg("%1 matched by content (%2)")
                    .arg(matched.size())
                    .arg(comparedFields.join(QStringLiteral(", ")));
    s += QStringLiteral(" · ") +
         msg("%1 mismatched (same id, other content)").arg(mismatched.size());
    s += QStringLiteral(" · ") + msg("%1 only in %2").arg(onlyA.size()).arg(nameA);
    s += QStringLiteral(" · ") + msg("%1 only in %2").arg(onlyB.size()).arg(nameB);
    if (!uncomparedFields.isEmpty()) {
        // The fields name the runs A and B; say them as the caller names them.
        QString fields = uncomparedFields.join(QStringLiteral(", "));
        fields.replace(QStringLiteral("in A, B)"), QStringLiteral("in %1, %2)").arg(nameA, nameB))
            .replace(QStringLiteral("in A)"), QStringLiteral("in %1)").arg(nameA))
            .replace(QStringLiteral("in B)"), QStringLiteral("in %1)").arg(nameB));
        s += QStringLiteral(" · ") + msg("not compared: %1").arg(fields);
    }
    return s;
}

SampleMatching matchSamples(const std::vector<SampleInfo>& a, const std::vector<SampleInfo>& b)
{
    std::vector<SampleContent> ca, cb;
    for (const SampleInfo& s : a)
        ca.push_back(sampleContent(s));
    for (const SampleInfo& s : b)
        cb.push_back(sampleContent(s));

    SampleMatching m;
    // A text enters the hash only when both runs store it for every sample: a hash over
    // a field one side lacks would split equal samples.
    m.comparedFields << QStringLiteral("suite");
    const bool context =
        allStore(ca, &SampleContent::context) && allStore(cb, &SampleContent::context);
    const bool question =
        allStore(ca, &SampleContent::question) && allStore(cb, &SampleContent::question);
    auto uncompared = [&](const char* name, QByteArray SampleContent::*field) {
        QStringList missing;
        if (!allStore(ca, field))
            missing << QStringLiteral("A");
        if (!allStore(cb, field))
            missing << QStringLiteral("B");
        m.uncomparedFields << msg("%1 (not stored in %2)")
                                  .arg(QLatin1String(name), missing.join(QStringLiteral(", ")));
    };
    if (context)
        m.comparedFields << QStringLiteral("context");
    else
        uncompared("context", &SampleContent::context);
    if (question)
        m.comparedFields << QStringLiteral("question");
    else
        uncompared("question", &SampleContent::question);
    m.comparedFields << QStringLiteral("answer");

    auto hashOf = [&](const SampleContent& c) {
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(sha256(c.suite));
        if (context)
            h.addData(c.context);
        if (question)
            h.addData(c.question);
        h.addData(c.answer);
        return h.result();
    };

    // Content hash -> indices, in key order, so duplicates pair deterministically.
    std::map<QByteArray, std::vector<size_t>> byHashB;
    std::vector<size_t> orderB(cb.size());
    for (size_t i = 0; i < cb.size(); ++i)
        orderB[i] = i;
    std::sort(orderB.begin(), orderB.end(),
              [&](size_t x, size_t y) { return cb[x].key < cb[y].key; });
    for (size_t i : orderB)
        byHashB[hashOf(cb[i])].push_back(i);
    std::vector<size_t> orderA(ca.size());
    for (size_t i = 0; i < ca.size(); ++i)
        orderA[i] = i;
    std::sort(orderA.begin(), orderA.end(),
              [&](size_t x, size_t y) { return ca[x].key < ca[y].key; });

    std::vector<bool> pairedA(ca.size(), false), pairedB(cb.size(), false);
    std::vector<QByteArray> hashA(ca.size());
    for (size_t i = 0; i < ca.size(); ++i)
        hashA[i] = hashOf(ca[i]);
    auto pair = [&](size_t i, size_t j) {
        pairedA[i] = pairedB[j] = true;
        m.matched.push_back({ca[i].key, cb[j].key});
    };
    // Same content under the same id first, then same content under another id.
    for (size_t i : orderA) {
        auto it = byHashB.find(hashA[i]);
        if (it == byHashB.end())
            continue;
        for (size_t j : it->second)
            if (!pairedB[j] && cb[j].key == ca[i].key) {
                pair(i, j);
                break;
            }
    }
    for (size_t i : orderA) {
        if (pairedA[i])
            continue;
        auto it = byHashB.find(hashA[i]);
        if (it == byHashB.end())
            continue;
        for (size_t j : it->second)
            if (!pairedB[j]) {
                pair(i, j);
                break;
            }
    }
    std::sort(m.matched.begin(), m.matched.end(),
              [](const SamplePair& x, const SamplePair& y) { return x.keyA < y.keyA; });

    std::map<QString, size_t> unpairedB;
    for (size_t j : orderB)
        if (!pairedB[j])
            unpairedB.emplace(cb[j].key, j);
    std::set<size_t> mismatchedB;
    for (size_t i : orderA) {
        if (pairedA[i])
            continue;
        if (auto it = unpairedB.find(ca[i].key); it != unpairedB.end()) {
            m.mismatched.push_back(
                {ca[i].key, whyDifferent(ca[i], cb[it->second], a[i], b[it->second])});
            mismatchedB.insert(it->second);
        } else {
            m.onlyA << ca[i].key;
        }
    }
    for (size_t j : orderB)
        if (!pairedB[j] && !mismatchedB.count(j))
            m.onlyB << cb[j].key;
    return m;
}

} // namespace kvl
