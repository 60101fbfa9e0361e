#pragma once

#include <QHash>
#include <QString>

namespace kvl {

// A page's stable id: what the session file stores, the navigator keys on and tests
// address. Typed, so that a page is never named by a bare string literal in the code;
// the text is the one the session file has always held ("accuracy", "sample").
class PageId
{
  public:
    PageId() = default;
    explicit PageId(const char* key) : m_key(QString::fromLatin1(key)) {}
    // From a session file or another outside source; may name no page.
    static PageId fromString(const QString& key)
    {
        PageId id;
        id.m_key = key;
        return id;
    }

    const QString& toString() const { return m_key; }
    bool isEmpty() const { return m_key.isEmpty(); }
    bool operator==(const PageId&) const = default;

  private:
    QString m_key;
};

inline size_t qHash(const PageId& id, size_t seed = 0)
{
    return qHash(id.toString(), seed);
}

// The pages KVLens ships (pageregistry.cpp lists them in the navigator's order).
namespace pages {
inline const PageId Accuracy{"accuracy"};
inline const PageId OutcomeGrid{"outcome-grid"};
inline const PageId Taxonomy{"taxonomy"};
inline const PageId ChainBreaks{"chain-breaks"};
inline const PageId Overlap{"overlap"};
inline const PageId FailureSets{"failure-sets"};
inline const PageId SuiteFailures{"suite-failures"};
inline const PageId Attention{"attention"};
inline const PageId Interventions{"interventions"};
inline const PageId SpanKeep{"span-keep"};
inline const PageId Leakage{"leakage"};
inline const PageId Eviction{"eviction"};
inline const PageId Ger{"ger"};
inline const PageId Sample{"sample"};
inline const PageId CompareSamples{"compare-samples"};
inline const PageId CompareRuns{"compare-runs"};
inline const PageId DecodingCurves{"offload-curves"};
inline const PageId RetrievalMap{"retrieval-map"};
} // namespace pages

// The questions a researcher brings (research/WORKFLOWS.md); the navigator groups the
// pages by them, in this order.
enum class PageGroup
{
    Overview,
    Failures,
    Attention,
    Instructions,
    Routing,
    Samples,
    Decoding,
};

QString pageGroupTitle(PageGroup group);
// The group's question, the navigator's tooltip.
QString pageGroupQuestion(PageGroup group);

} // namespace kvl
