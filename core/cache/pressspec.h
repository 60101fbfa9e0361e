#pragma once

#include <QString>
#include <utility>
#include <vector>

namespace kvl {

// A press as written on the command line:
//   spec   := name [ "(" spec { "+" spec } ")" ] [ ":" param { "," param } ]
//   param  := key "=" value            (value: no , + ( ) ; lists use ";")
// e.g. "snapkv:window=64,kernel=5", "adakv(snapkv):alpha_safeguard=0.2",
// "chunkkv(knorm):chunk=20", "composed(streamingllm+knorm)",
// "perlayer(knorm):ratios=0.2;0.5". Names are case-insensitive.
// Wrappers around wrappers: real specs nest two or three ("adakv(chunkkv(snapkv))").
inline constexpr int kMaxPressNesting = 32;

struct PressSpec
{
    QString name;
    std::vector<PressSpec> inner;
    std::vector<std::pair<QString, QString>> params;

    // Throws kvl::Error("press spec '...'", problem) with the offending column.
    static PressSpec parse(const QString& text);
    QString toString() const;
};

} // namespace kvl
