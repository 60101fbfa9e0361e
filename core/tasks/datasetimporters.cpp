#include "tasks/datasetimporters.h"

#include "common/error.h"
#include "tasks/importformats.h"

#include <QSet>
#include <QStringList>

namespace kvl {

const std::vector<DatasetFormat>& datasetFormats()
{
    static const std::vector<DatasetFormat> formats{
        {QStringLiteral("longbench"),
         QStringLiteral("LongBench JSONL (input, context, answers, dataset, _id); answers found "
                        "verbatim in the context become evidence"),
         &importLongBench},
        {QStringLiteral("longbench-v2"),
         QStringLiteral("LongBench-v2 JSON or JSONL (_id, question, choice_A..D, answer, "
                        "context); multiple choice, no spans"),
         &importLongBenchV2},
        {QStringLiteral("ruler"),
         QStringLiteral("RULER niah JSONL (index, input, outputs, answer_prefix); the needles "
                        "holding the outputs are evidence, other needles distractors"),
         &importRuler},
        {QStringLiteral("hotpotqa"),
         QStringLiteral("HotpotQA distractor JSON or JSONL (_id, question, answer, "
                        "supporting_facts, context); supporting sentences are evidence, "
                        "paragraphs without one distractors"),
         &importHotpotQa},
        {QStringLiteral("qasper"),
         QStringLiteral("Qasper JSON (paper id -> paper) or JSONL of papers; one sample per "
                        "question, its evidence paragraphs as evidence"),
         &importQasper},
        {QStringLiteral("kvdiagnosis"),
         QStringLiteral("KVDiagnosis per-row JSONL joined to --source samples by sample_id; "
                        "the rows' diagnostics go to meta.kvdiagnosis"),
         &importKvDiagnosis},
        {QStringLiteral("ifeval"),
         QStringLiteral("IFEval JSONL (key, prompt, instruction_id_list, kwargs, optional "
                        "system/user messages); instruction sentences as format_rule spans"),
         &importIfEval},
    };
    return formats;
}

std::vector<Sample> importDataset(const QString& format, const QString& path,
                                  const ImportOptions& options)
{
    const DatasetFormat* found = nullptr;
    QStringList names;
    for (const DatasetFormat& f : datasetFormats()) {
        names << f.name;
        if (f.name == format)
            found = &f;
    }
    if (!found)
        throw Error(QStringLiteral("unknown dataset format '%1' (known: %2)")
                        .arg(format, names.join(QStringLiteral(", "))));
    std::vector<Sample> samples = found->import(path, options);
    // An empty output is almost always the wrong file (or an empty split).
    if (samples.empty())
        throw Error(path, QStringLiteral("no %1 records in the file").arg(format));

    // The same checks the JSONL loader makes, so an importer bug cannot write a file
    // that `tasks validate` would reject.
    QSet<QString> ids;
    for (const Sample& s : samples) {
        if (ids.contains(s.id))
            throw Error(path, QStringLiteral("sample id '%1' occurs twice").arg(s.id));
        ids.insert(s.id);
        try {
            sampleFromJson(sampleToJson(s));
        } catch (const Error& e) {
            throw Error(path, QStringLiteral("sample '%1': %2").arg(s.id, e.message()));
        }
    }
    return samples;
}

} // namespace kvl
