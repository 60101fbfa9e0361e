#pragma once

#include "tokenizer/normalizedtext.h"

#include <QJsonValue>
#include <QRegularExpression>
#include <QString>
#include <vector>

namespace kvl {

// The "pre_tokenizer" of a tokenizer.json: splits normalized text into the pieces
// that BPE merges within. Supports Sequence, Split (regex or string; every split
// behaviour), ByteLevel (prefix space, GPT-2 regex), Metaspace and Digits.
class PreTokenizer
{
  public:
    // Throws kvl::Error naming `path` for an unsupported type or a bad regex.
    static PreTokenizer fromJson(const QJsonValue& json, const QString& path);

    std::vector<NormalizedText> split(const NormalizedText& text) const;
    // True when a ByteLevel step is present: BPE then works on UTF-8 bytes.
    bool isByteLevel() const { return m_byteLevel; }

    // GPT-2's pattern, used by ByteLevel with use_regex.
    static QString gpt2Pattern();

  private:
    enum class Behavior
    {
        Isolated,
        Removed,
        MergedWithPrevious,
        MergedWithNext,
        Contiguous
    };
    struct Step
    {
        enum Kind
        {
            Split,
            ByteLevel,
            Metaspace,
            Digits
        } kind;
        QRegularExpression regex;
        Behavior behavior = Behavior::Isolated;
        bool invert = false;
        bool prefixSpace = false;
        QString replacement;
        enum Prepend
        {
            Always,
            First,
            Never
        } prepend = Always;
        bool splitWords = true;
    };
    static void parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps);
    static QRegularExpression compile(const QString& pattern, const QString& path);
    static void splitByRegex(const NormalizedText& t, const QRegularExpression& re,
                             Behavior behavior, bool invert, std::vector<NormalizedText>& out);
    static void applyStep(const Step& s, const NormalizedText& t, std::vector<NormalizedText>& out);

    std::vector<Step> m_steps;
    bool m_byteLevel = false;
};

} // namespace kvl
