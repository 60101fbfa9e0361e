#include "tokenizer/decoder.h"

#include "tokenizer/bytelevel.h"

#include "common/error.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvl {

Decoder Decoder::fromJson(const QJsonValue& json, const QString& path)
{
    Decoder d;
    if (!json.isNull() && !json.isUndefined())
        parse(json, path, d.m_steps);
    return d;
}

Decoder Decoder::byteLevel()
{
    Decoder d;
    d.m_steps.push_back(Step{Step::ByteLevel});
    return d;
}

void Decoder::parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps)
{
    const QJsonObject o = json.toObject();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("Sequence")) {
        for (const QJsonValue& v : o.value(QStringLiteral("decoders")).toArray())
            parse(v, path, steps);
        return;
    }
    Step s{Step::ByteLevel};
    if (type == QLatin1String("ByteLevel")) {
    } else if (type == QLatin1String("Metaspace")) {
        s.kind = Step::Metaspace;
        s.a = o.value(QStringLiteral("replacement")).toString(QStringLiteral("\u2581"));
        const QString scheme = o.value(QStringLiteral("prepend_scheme")).toString();
        s.prefixSpace = scheme.isEmpty() ? o.value(QStringLiteral("add_prefix_space")).toBool(true)
                                         : scheme != QLatin1String("never");
    } else if (type == QLatin1String("Replace")) {
        s.kind = Step::Replace;
        const QJsonObject pattern = o.value(QStringLiteral("pattern")).toObject();
        if (!pattern.contains(QStringLiteral("String")))
            throw Error(path, QStringLiteral("unsupported decoder: Replace with a regex pattern"));
        s.a = pattern.value(QStringLiteral("String")).toString();
        s.b = o.value(QStringLiteral("content")).toString();
    } else if (type == QLatin1String("ByteFallback")) {
        s.kind = Step::ByteFallback;
    } else if (type == QLatin1String("Fuse")) {
        s.kind = Step::Fuse;
    } else if (type == QLatin1String("Strip")) {
        s.kind = Step::Strip;
        s.a = o.value(QStringLiteral("content")).toString(QStringLiteral(" "));
        s.start = o.value(QStringLiteral("start")).toInt();
        s.stop = o.value(QStringLiteral("stop")).toInt();
        // One character, as the Rust decoder's `char`: an empty one would strip forever.
        const bool oneChar = s.a.size() == 1 || (s.a.size() == 2 && s.a.at(0).isHighSurrogate() &&
                                                 s.a.at(1).isLowSurrogate());
        if (!oneChar || s.start < 0 || s.stop < 0)
            throw Error(path, QStringLiteral("Strip decoder: content must be one character and "
                                             "start and stop counts of at least 0 (got '%1', "
                                             "%2, %3)")
                                  .arg(s.a)
                                  .arg(s.start)
                                  .arg(s.stop));
    } else {
        throw Error(path, QStringLiteral("unsupported decoder type '%1'").arg(type));
    }
    steps.push_back(s);
}

namespace {
// "<0x0A>" -> 10, anything else -> -1.
int byteFallbackValue(const QString& t)
{
    if (t.size() != 6 || !t.startsWith(QLatin1String("<0x")) || t.at(5) != QLatin1Char('>'))
        return -1;
    bool ok = false;
    const int v = t.mid(3, 2).toInt(&ok, 16);
    return ok ? v : -1;
}

// Strict UTF-8 decoding as Rust's String::from_utf8: invalid input gives one U+FFFD
// per byte (what HF's ByteFallback decoder emits).
QString decodeBytesStrict(const QByteArray& bytes)
{
    const QString s = QString::fromUtf8(bytes);
    if (s.toUtf8() == bytes)
        return s;
    return QString(bytes.size(), QChar(0xFFFD));
}
} // namespace

void Decoder::apply(const Step& s, QStringList& tokens)
{
    switch (s.kind) {
    case Step::ByteLevel: {
        QByteArray all;
        for (const QString& t : tokens) {
            QByteArray bytes;
            all += bytelevel::fromChars(t, bytes) ? bytes : t.toUtf8();
        }
        tokens = QStringList{QString::fromUtf8(all)};
        return;
    }
    case Step::Metaspace:
        for (int i = 0; i < tokens.size(); ++i) {
            QString t = tokens[i];
            t.replace(s.a, QStringLiteral(" "));
            if (i == 0 && s.prefixSpace && t.startsWith(QLatin1Char(' ')))
                t.remove(0, 1);
            tokens[i] = t;
        }
        return;
    case Step::Replace:
        for (QString& t : tokens)
            t.replace(s.a, s.b);
        return;
    case Step::ByteFallback: {
        QStringList out;
        QByteArray pending;
        for (const QString& t : tokens) {
            const int v = byteFallbackValue(t);
            if (v >= 0) {
                pending.append(char(v));
                continue;
            }
            if (!pending.isEmpty())
                out << decodeBytesStrict(pending);
            pending.clear();
            out << t;
        }
        if (!pending.isEmpty())
            out << decodeBytesStrict(pending);
        tokens = out;
        return;
    }
    case Step::Fuse:
        tokens = QStringList{tokens.join(QString())};
        return;
    case Step::Strip:
        for (QString& t : tokens) {
            int from = 0;
            for (int k = 0; k < s.start && from < t.size() && t.mid(from, s.a.size()) == s.a; ++k)
                from += int(s.a.size());
            int to = int(t.size());
            for (int k = 0; k < s.stop && to > from && t.mid(to - s.a.size(), s.a.size()) == s.a;
                 ++k)
                to -= int(s.a.size());
            t = t.mid(from, to - from);
        }
        return;
    }
}

QString Decoder::decode(QStringList tokens) const
{
    for (const Step& s : m_steps)
        apply(s, tokens);
    return tokens.join(QString());
}

} // namespace kvl
