#include "tokenizer/normalizer.h"

#include "common/error.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvl {

Normalizer Normalizer::fromJson(const QJsonValue& json, const QString& path)
{
    Normalizer n;
    if (!json.isNull() && !json.isUndefined())
        parse(json, path, n.m_steps);
    return n;
}

void Normalizer::parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps)
{
    const QJsonObject o = json.toObject();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("Sequence")) {
        for (const QJsonValue& v : o.value(QStringLiteral("normalizers")).toArray())
            parse(v, path, steps);
        return;
    }
    Step s{Step::Unicode};
    if (type == QLatin1String("NFC") || type == QLatin1String("NFD") ||
        type == QLatin1String("NFKC") || type == QLatin1String("NFKD")) {
        s.form = type == QLatin1String("NFC")    ? QString::NormalizationForm_C
                 : type == QLatin1String("NFD")  ? QString::NormalizationForm_D
                 : type == QLatin1String("NFKC") ? QString::NormalizationForm_KC
                                                 : QString::NormalizationForm_KD;
    } else if (type == QLatin1String("Prepend")) {
        s.kind = Step::Prepend;
        s.a = o.value(QStringLiteral("prepend")).toString();
    } else if (type == QLatin1String("Replace")) {
        s.kind = Step::Replace;
        const QJsonObject pattern = o.value(QStringLiteral("pattern")).toObject();
        if (!pattern.contains(QStringLiteral("String")))
            throw Error(path,
                        QStringLiteral("unsupported normalizer: Replace with a regex pattern"));
        s.a = pattern.value(QStringLiteral("String")).toString();
        s.b = o.value(QStringLiteral("content")).toString();
    } else if (type == QLatin1String("Lowercase")) {
        s.kind = Step::Lowercase;
    } else if (type == QLatin1String("Strip")) {
        s.kind = Step::Strip;
        s.left = o.value(QStringLiteral("strip_left")).toBool(true);
        s.right = o.value(QStringLiteral("strip_right")).toBool(true);
    } else {
        throw Error(path, QStringLiteral("unsupported normalizer type '%1'").arg(type));
    }
    steps.push_back(s);
}

void Normalizer::apply(NormalizedText& t) const
{
    for (const Step& s : m_steps) {
        switch (s.kind) {
        case Step::Unicode:
            t.normalize(s.form);
            break;
        case Step::Prepend:
            // As HF tokenizers: nothing is prepended to an empty piece.
            if (!t.text.isEmpty())
                t.prepend(s.a);
            break;
        case Step::Replace:
            t.replaceAll(s.a, s.b);
            break;
        case Step::Lowercase:
            t.toLower();
            break;
        case Step::Strip: {
            int from = 0;
            int to = int(t.text.size());
            while (s.left && from < to && t.text.at(from).isSpace())
                ++from;
            while (s.right && to > from && t.text.at(to - 1).isSpace())
                --to;
            t = t.mid(from, to - from);
            break;
        }
        }
    }
}

} // namespace kvl
