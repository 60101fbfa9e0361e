#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

class Rng;

// Templated sentences shared by several suites, kept in one place so the closed
// world stays small and every suite phrases a record the same way.
namespace phrases {

// "The access code of Anna Berg is 4821."
QString codeRecord(const QString& name, int code);
// "What is the access code of Anna Berg?": the lookup request of a codeRecord(), asked by
// the retrieval and instructions suites alike.
QString codeRequest(const QString& name);
// "Anna Berg is 4821": one item of a multiquery answer. Naming each asked name before its
// code turns the answer into lookups of the name just written (the record's own words),
// instead of counting how many codes were given so far.
QString namedCode(const QString& name, int code);
// The code of a codeRecord() text ("The access code of Anna Berg is 4821." -> "4821"),
// empty when `text` is not one: follow-up questions read records back from spans.
QString codeOfRecord(const QString& text);
// The question field: "\nQuestion: <request>\nAnswer:". `requestOffset` receives
// where the request starts inside it.
QString question(const QString& request, int* requestOffset = nullptr);
// "a", "a and b", "a, b and c".
QString joinAnd(const QStringList& items);
// Distinct numbers in [0, 9999], so a value names one record.
QList<int> distinctCodes(Rng& rng, int count);

} // namespace phrases
} // namespace kvl
