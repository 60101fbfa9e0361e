#pragma once

#include "cache/pressparams.h"
#include "compressors/pressentry.h"

#include <QJsonArray>
#include <QString>
#include <memory>
#include <vector>

namespace kvl {

// Every compressor KVLens knows, built by name from a spec (see cache/pressspec.h):
//   snapkv:window=64,kernel=5        a scorer alone = uniform top-k per kv-head
//   adakv(snapkv):alpha_safeguard=0.2  a selector over a scorer
//   whitelist(snapkv)                protected spans scored +inf (kept by any selector)
//   composed(streamingllm+knorm)     presses applied one after the other
class PressCatalog
{
  public:
    PressCatalog();

    const std::vector<PressEntry>& entries() const { return m_entries; }
    const PressEntry* find(const QString& name) const;

    // Throws kvl::Error naming the spec for unknown names, parameters or shapes.
    std::unique_ptr<Press> press(const QString& spec) const;
    std::unique_ptr<Press> press(const PressSpec& spec) const;
    std::unique_ptr<Scorer> scorer(const PressSpec& spec) const;
    // The one scorer inside a selector's parentheses; `fallback` when none is written
    // (empty fallback: one is required).
    std::unique_ptr<Scorer> innerScorer(const PressSpec& spec, const QString& fallback = {}) const;

    // The specs `presses` lists and the invariant tests sweep: every entry with its
    // defaults (selectors over snapkv or knorm, wrappers over knorm).
    std::vector<QString> exampleSpecs() const;
    // The parameters `e`'s factory reads, with the type and range it enforces: the press
    // is built from its example spec under a PressParamsProbe, then once more with each
    // switch turned the other way (a parameter may be read only under a switch, as
    // cur's seed under random_leverage). Empty for an unavailable press.
    std::vector<ParamRule> paramRules(const PressEntry& e) const;
    // Every entry with its parameters (name, default, help, type, min/max, choices).
    QJsonArray toJson() const;

  private:
    const PressEntry& entry(const PressSpec& spec) const;
    QString exampleSpec(const PressEntry& e) const;
    std::vector<PressEntry> m_entries;
};

} // namespace kvl
