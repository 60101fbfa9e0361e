#pragma once

#include "tokenizer/normalizedtext.h"

#include <QJsonValue>
#include <QString>
#include <vector>

namespace kvl {

// The "normalizer" of a tokenizer.json: a sequence of steps (NFC/NFD/NFKC/NFKD,
// Prepend, Replace with a string pattern, Lowercase, Strip) applied to each piece
// of text between added tokens.
class Normalizer
{
  public:
    // Throws kvl::Error naming `path` for a type it does not support.
    static Normalizer fromJson(const QJsonValue& json, const QString& path);

    void apply(NormalizedText& text) const;
    bool isEmpty() const { return m_steps.empty(); }

  private:
    struct Step
    {
        enum Kind
        {
            Unicode,
            Prepend,
            Replace,
            Lowercase,
            Strip
        } kind;
        QString::NormalizationForm form = QString::NormalizationForm_C;
        QString a;
        QString b;
        bool left = false;
        bool right = false;
    };
    static void parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps);

    std::vector<Step> m_steps;
};

} // namespace kvl
