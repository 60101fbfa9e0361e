#include "tokenizer/normalizedtext.h"

#include <algorithm>

namespace kvl {

NormalizedText NormalizedText::identity(const QString& original, int base)
{
    NormalizedText n;
    n.text = original;
    n.align.resize(size_t(original.size()));
    for (int i = 0; i < original.size(); ++i)
        n.align[size_t(i)] = {base + i, base + i + 1};
    return n;
}

NormalizedText NormalizedText::mid(int pos, int len) const
{
    NormalizedText n;
    n.text = text.mid(pos, len);
    n.align.assign(align.begin() + pos, align.begin() + pos + n.text.size());
    return n;
}

std::pair<int, int> NormalizedText::originalRange(int from, int to) const
{
    int begin = -1;
    int end = -1;
    for (int i = from; i < to; ++i) {
        const auto& a = align[size_t(i)];
        if (a.first == a.second)
            continue;
        begin = begin < 0 ? a.first : std::min(begin, a.first);
        end = std::max(end, a.second);
    }
    if (begin < 0) {
        const int at = from < int(align.size()) ? align[size_t(from)].first
                                                : (align.empty() ? 0 : align.back().second);
        return {at, at};
    }
    return {begin, end};
}

void NormalizedText::prepend(const QString& prefix)
{
    const int at = align.empty() ? 0 : align.front().first;
    text.prepend(prefix);
    align.insert(align.begin(), size_t(prefix.size()), {at, at});
}

void NormalizedText::replaceAll(const QString& from, const QString& to)
{
    if (from.isEmpty() || !text.contains(from))
        return;
    QString out;
    std::vector<std::pair<int, int>> outAlign;
    out.reserve(text.size());
    outAlign.reserve(align.size());
    int i = 0;
    while (i < text.size()) {
        if (text.mid(i, from.size()) == from) {
            const auto range = originalRange(i, i + int(from.size()));
            out += to;
            outAlign.insert(outAlign.end(), size_t(to.size()), range);
            i += int(from.size());
        } else {
            out += text[i];
            outAlign.push_back(align[size_t(i)]);
            ++i;
        }
    }
    text = out;
    align = std::move(outAlign);
}

namespace {
// Clusters: a starter (combining class 0) with the marks after it. Normal forms
// only rewrite inside such clusters (almost always), so each is normalized alone.
std::vector<int> clusterStarts(const QString& s)
{
    std::vector<int> starts;
    for (int i = 0; i < s.size();) {
        const char32_t c = s.at(i).isHighSurrogate() && i + 1 < s.size()
                               ? QChar::surrogateToUcs4(s.at(i), s.at(i + 1))
                               : s.at(i).unicode();
        if (starts.empty() || QChar::combiningClass(c) == 0)
            starts.push_back(i);
        i += c > 0xFFFF ? 2 : 1;
    }
    return starts;
}
} // namespace

void NormalizedText::normalize(QString::NormalizationForm form)
{
    const QString whole = text.normalized(form);
    if (whole == text)
        return;
    std::vector<int> starts = clusterStarts(text);
    starts.push_back(int(text.size()));
    // Group clusters into chunks that normalize independently (a chunk grows while
    // normalizing it together with the next cluster differs from apart).
    QString out;
    std::vector<std::pair<int, int>> outAlign;
    // Fast paths for the common case (mostly Latin text, a few clusters to fix):
    // text below U+0300 is already NFC and never composes with a preceding cluster.
    const bool nfc = form == QString::NormalizationForm_C;
    const auto belowCombining = [](const QString& s) {
        return std::all_of(s.begin(), s.end(), [](QChar ch) { return ch.unicode() < 0x300; });
    };
    size_t c = 0;
    while (c + 1 < starts.size()) {
        size_t e = c + 1;
        QString chunk = text.mid(starts[c], starts[e] - starts[c]);
        QString norm = nfc && belowCombining(chunk) ? chunk : chunk.normalized(form);
        while (e + 1 < starts.size()) {
            // Under NFC nothing below U+0300 composes with what precedes it.
            if (nfc && text.at(starts[e]).unicode() < 0x300)
                break;
            const QString next = text.mid(starts[e], starts[e + 1] - starts[e]);
            const QString together = (chunk + next).normalized(form);
            if (together == norm + next.normalized(form))
                break;
            chunk += next;
            norm = together;
            ++e;
        }
        if (norm == chunk) {
            for (int i = starts[c]; i < starts[e]; ++i)
                outAlign.push_back(align[size_t(i)]);
        } else {
            outAlign.insert(outAlign.end(), size_t(norm.size()),
                            originalRange(starts[c], starts[e]));
        }
        out += norm;
        c = e;
    }
    // Should the cluster-wise result ever differ from normalizing the whole, the
    // whole is what the reference tokenizers see: keep it with a coarse alignment.
    if (out != whole) {
        const auto range = originalRange(0, int(text.size()));
        outAlign.assign(size_t(whole.size()), range);
        out = whole;
    }
    text = out;
    align = std::move(outAlign);
}

void NormalizedText::toLower()
{
    const QString lower = text.toLower();
    if (lower.size() == text.size()) {
        text = lower;
        return;
    }
    // Lower-casing changed the length (rare: U+0130): keep a coarse alignment.
    const auto range = originalRange(0, int(text.size()));
    text = lower;
    align.assign(size_t(text.size()), range);
}

} // namespace kvl
