#pragma once

#include "tasks/sample.h"
#include "tasks/text2jsonscore.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

namespace kvl {

// Scores one model output against a sample, by suite:
//  retrieval: with numeric meta.values, the codes the prediction states (codesMatch:
//      in order, any order for the multivalue variant); else exact match -> {"score"}
//  multihop: exact match of the final value, the text after the last '='
//      (chainValueMatch; gold from meta.value, else the answer) -> {"score"}
//  any suite without its own rule: exact match -> {"score"}
//  text2json: the Text2JSON score under `text2jsonRule` (the published evaluator's by
//      default); gold objects from meta.objects, else the answer parsed as JSON -> {"score"}
//  instructions: compliance = mean over the sample's rules -> {"score", one field per
//      rule (1 or 0), "leak" (1 or 0), "leak_recall"}
// Every score is in [0, 1]. Throws kvl::Error when the sample's meta is malformed.
QJsonObject scoreSample(const QString& suite, const Sample& sample, const QString& prediction,
                        Text2jsonRule text2jsonRule = Text2jsonRule::Published);

// Means of the numeric fields of many score objects; a field averages over the
// objects that have it (a rule absent from a sample does not count against it).
class ScoreSummary
{
  public:
    void add(const QJsonObject& score);
    int count() const { return m_count; }
    // {"n": count, "<field>": mean, ...} plus "percent" = 100 x mean score.
    QJsonObject toJson() const;

  private:
    int m_count = 0;
    QMap<QString, std::pair<double, int>> m_sums; // field -> (sum, count)
};

} // namespace kvl
