#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// The words of KVLens's views with their definitions, in the words of the research notes
// (shared/research/SCIENCE.md) and the docs: tooltips of column headers, signature names
// and metric labels read them, and Help › Glossary lists them all. One list: a metric
// column or a signature without an entry fails tst_glossary, and so does an entry nothing
// uses.
struct GlossaryEntry
{
    QString term;       // as the views show it ("ECov", "C→W", "low_mapped_coverage")
    QString title;      // the term spelled out ("Evidence map coverage")
    QString definition; // translated
};

QVector<GlossaryEntry> glossary();
// The definition of `term` ("ERR", a signature id), "title: definition"; empty for a
// term the glossary does not hold.
QString glossaryTip(const QString& term);
// The failure signatures the classifier assigns (KVDiagnosis's rules), in the
// taxonomy's order.
QStringList failureSignatureIds();
// The whole glossary as HTML, for Help › Glossary.
QString glossaryHtml();

} // namespace kvl
