#pragma once

#include "cache/press.h"
#include "cache/pressspec.h"
#include "cache/scorer.h"

#include <QString>
#include <memory>
#include <vector>

namespace kvl {

class PressCatalog;

// One compressor of the catalog: its name, what it is, its rule in one line, its
// parameters with defaults (the named constants of its file) and how to build it.
struct PressEntry
{
    enum class Kind
    {
        Scorer,    // scores entries; alone it is a press with uniform top-k per head
        Selector,  // turns the scores of its inner scorer into a kept mask
        Wrapper,   // wraps a scorer (rescoring) or whole presses
        Transform, // rewrites K/V; positions all kept
    };
    struct Param
    {
        QString name;
        QString defaultValue;
        QString help;
    };
    using ScorerFactory = std::unique_ptr<Scorer> (*)(const PressSpec&, const PressCatalog&);
    using PressFactory = std::unique_ptr<Press> (*)(const PressSpec&, const PressCatalog&);

    QString name;
    Kind kind = Kind::Scorer;
    QString rule;  // one line, as in the file's comment
    QString inner; // what goes in parentheses: "", "scorer", "scorer (optional)", "press+press..."
    std::vector<Param> params;
    ScorerFactory makeScorer = nullptr; // set for scorers and scorer wrappers
    PressFactory makePress = nullptr;   // set for selectors, press wrappers and transforms
    // Non-empty for a press listed but not buildable here, saying why (what it needs
    // that KVLens does not have); the catalog refuses to build it with this reason.
    QString unavailable;
};

QString pressKindName(PressEntry::Kind kind);

// Every press of the catalog (presslist.h).
#define KVL_PRESS(entry) PressEntry entry();
#include "compressors/presslist.h"
#undef KVL_PRESS
// Listed, not available (unavailablepresses.cpp says why).
std::vector<PressEntry> unavailableEntries();

} // namespace kvl
