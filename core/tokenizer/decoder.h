#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {

// The "decoder" of a tokenizer.json: turns token strings back into text. Supports
// ByteLevel, Metaspace, Replace (string pattern), ByteFallback, Fuse, Strip and
// Sequence; no decoder concatenates the tokens.
class Decoder
{
  public:
    // Throws kvl::Error naming `path` for an unsupported type.
    static Decoder fromJson(const QJsonValue& json, const QString& path);
    static Decoder byteLevel();

    QString decode(QStringList tokens) const;

  private:
    struct Step
    {
        enum Kind
        {
            ByteLevel,
            Metaspace,
            Replace,
            ByteFallback,
            Fuse,
            Strip
        } kind;
        QString a;
        QString b;
        int start = 0;
        int stop = 0;
        bool prefixSpace = true;
    };
    static void parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps);
    static void apply(const Step& s, QStringList& tokens);

    std::vector<Step> m_steps;
};

} // namespace kvl
