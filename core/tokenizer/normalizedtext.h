#pragma once

#include <QString>
#include <utility>
#include <vector>

namespace kvl {

// A string transformed from an original text, with every UTF-16 unit aligned to
// the range [first, second) of the original it came from. Normalizers and
// pre-tokenizers rewrite text (NFC, "▁" for spaces, a prepended "▁"); keeping the
// alignment lets encodeWithOffsets report ranges in the caller's text.
// Inserted units that stand for no original text get an empty range.
struct NormalizedText
{
    QString text;
    std::vector<std::pair<int, int>> align;

    // The original text itself, shifted so that unit i maps to [base+i, base+i+1).
    static NormalizedText identity(const QString& original, int base = 0);

    NormalizedText mid(int pos, int len) const;
    // Range in the original covered by units [from, to): the union of their
    // non-empty alignments (an empty range at the first unit if all are empty).
    std::pair<int, int> originalRange(int from, int to) const;

    void prepend(const QString& prefix);
    // Replaces each occurrence of `from` by `to`; each inserted unit maps to the
    // whole replaced range.
    void replaceAll(const QString& from, const QString& to);
    // Applies a Unicode normalization form, keeping alignments exact outside the
    // (rare) clusters that the form rewrites.
    void normalize(QString::NormalizationForm form);
    void toLower();
};

} // namespace kvl
