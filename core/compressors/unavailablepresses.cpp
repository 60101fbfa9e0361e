// kvpress presses KVLens lists but cannot build, each with what it would need. A press
// here is refused by the catalog with its reason and left out of the example sweeps.
#include "compressors/presscatalog.h"

namespace kvl {
namespace {

PressEntry unavailable(const char* name, PressEntry::Kind kind, const char* rule,
                       const char* reason)
{
    return {.name = QString::fromLatin1(name),
            .kind = kind,
            .rule = QString::fromUtf8(rule),
            .unavailable = QString::fromUtf8(reason)};
}

} // namespace

std::vector<PressEntry> unavailableEntries()
{
    return {
        unavailable("restorekv", PressEntry::Kind::Wrapper,
                    "RestoreKV (arXiv:2608.01247; kvpress restorekv_press.py): 8 learned "
                    "restore tokens attend to the full cache in one LoRA-adapted pass and fill "
                    "part of KVzip's budget",
                    "builds on kvzip and needs a LoRA-adapted model pass over "
                    "learned restore embeddings (PEFT adapters higokri/RestoreKV-*); the "
                    "engine has no LoRA path"),
        unavailable("dms_trained", PressEntry::Kind::Scorer,
                    "DMS with its trained evictors (Łańcucki et al. 2025, arXiv:2506.05345; "
                    "nvidia/Qwen3-8B-DMS-8x): eviction decisions learned into a retrofitted "
                    "checkpoint, applied with delayed eviction during generation",
                    "the evictor is part of a retrofitted model checkpoint (its attention "
                    "computes the decision), not a separate weights file, and acts with "
                    "delayed eviction while decoding; use dms(scorer) for kvpress's "
                    "threshold form"),
    };
}

} // namespace kvl
