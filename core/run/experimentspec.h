#pragma once

#include "common/presslist.h" // splitPressList: the --press list rule

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace kvl {

// Where a sweep's samples come from: a seeded task-suite generator, or a JSONL file
// in the schema of tasks/SCHEMA.md.
struct SampleSource
{
    enum class Kind
    {
        Generator,
        Jsonl
    };
    Kind kind = Kind::Generator;
    // Generator: n samples of `suite`, context lengths in [minTokens, maxTokens].
    QString suite;
    int n = 0;
    int minTokens = 256;
    int maxTokens = 512;
    std::uint64_t seed = 1;
    QString variant; // empty: each sample draws one
    // Jsonl: the path as written in the spec, and as resolved against the spec's folder.
    QString path;
    QString resolvedPath;
};

// One compressor of the sweep: the press spec (cache/pressspec.h) and the name rows are
// grouped by (the spec as written unless the spec file names it).
struct CompressorConfig
{
    QString name;
    QString spec;
};

// Re-answering selected rows with the attention to some context entries boosted by
// log beta: "boost" on the evidence, "sham" on as many random non-evidence entries.
struct InterventionSpec
{
    QString kind = QStringLiteral("boost"); // boost | sham
    double beta = 4.0;
    // Which compressed rows (diagnose/interventionplan.h): "retained" (KVDiagnosis's
    // target: C→W rows whose evidence is retained, ECov_slot ≥ 0.90 or structurally
    // addressable, with EAR < 0.5), "low_ear" (every C→W row with EAR < 0.5, evicted
    // evidence included), "c_to_w" (every C→W row) or "all" (every compressed row).
    QString on = QStringLiteral("retained");
};

// Which rows keep their blobs in the run file: "all", "failures" (FullCache rows and
// rows answered wrong) or "none". Masks are bit-packed and small; attention summaries
// are floats, so by default only the rows a researcher inspects keep them.
struct StoreOptions
{
    QString masks = QStringLiteral("all");
    QString attention = QStringLiteral("failures");
    // Stored attention is pooled to at most this many context columns per (layer,
    // kv-head) (diagnose/attentionpooling.h; 0 = every position). Diagnostics are computed
    // from the full-resolution attention before it is pooled.
    int attentionPositions = kDefaultAttentionPositions;
    static constexpr int kDefaultAttentionPositions = 4096;
};

// The experiment of one run file: model, samples, compressors × ratios, interventions.
// JSON form (every key but model, samples and compressors optional):
//   {"model": "bundled" | DIR,
//    "samples": [{"suite": "retrieval", "n": 20, "tokens": "256:512", "seed": 1,
//                 "variant": ""}, {"jsonl": "data.jsonl"}],
//    "compressors": ["snapkv", {"name": "AdaKV", "spec": "adakv(snapkv)"}],
//    "ratios": [0.25, 0.5, 0.75],
//    "interventions": [{"kind": "boost", "beta": 4, "on": "retained"},
//                      {"kind": "sham", "beta": 4, "on": "retained"}],
//    "seed": 1, "threads": 0, "max_new_tokens": 0,
//    "store": {"masks": "all", "attention": "failures", "attention_positions": 4096},
//    "chat_template": "auto", "chat_vars": {"enable_thinking": false}}
// "interventions" absent = boost and sham at beta 4 on the "retained" rows; [] = none.
// max_new_tokens 0 = the gold answer's length + 16 tokens per sample.
// chat_template: "auto" (the model's tokenizer_config.json chat_template if it has one,
// else none), "none" (the base layout) or a Jinja file (relative to the spec's folder);
// chat_vars: the template's variables (tasks/promptformat.h). A run file records the
// template it used under "chat_template_used" (fromJson ignores that key).
// skip_too_long: a sample longer than the model allows is recorded as skipped (with
// its reason) instead of stopping the run before it starts.
struct ExperimentSpec
{
    QString model;
    std::vector<SampleSource> samples;
    std::vector<CompressorConfig> compressors;
    std::vector<double> ratios;
    std::vector<InterventionSpec> interventions;
    std::uint64_t seed = 1;
    int threads = 0; // 0: libtorch's default
    int maxNewTokens = 0;
    StoreOptions store;
    QString chatTemplate = QStringLiteral("auto");     // as written
    QString chatTemplatePath = QStringLiteral("auto"); // resolved against the spec's folder
    QJsonObject chatVars;
    bool skipTooLong = false;

    // Throws kvl::Error(origin, "field 'samples[1].n': ...") for a malformed spec.
    // Relative JSONL paths resolve against baseDir.
    static ExperimentSpec fromJson(const QJsonObject& object, const QString& origin,
                                   const QString& baseDir = {});
    static ExperimentSpec fromFile(const QString& path);

    // The canonical JSON with every default written out: two specs that run the same
    // experiment give the same object (this is what a run file records and what a
    // resumed run must match). chat_template, chat_vars, skip_too_long and
    // store.attention_positions are left out at their defaults (auto, {}, false, 4096),
    // so that specs written before they existed stay the same object.
    QJsonObject toJson() const;

    static std::vector<InterventionSpec> defaultInterventions();
};

// "MIN:MAX" or "N" (exactly N) token lengths; throws kvl::Error naming `what`.
std::pair<int, int> parseTokenRange(const QString& text, const QString& what);

} // namespace kvl
