#pragma once

#include "runviewdata.h"
#include "sampledetail.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;

namespace kvl {

class HeatmapView;
class LatestRequest;

// A configuration of an open run, as the compare panel lists it.
struct CompareChoice
{
    QString path;
    QString runName;
    ConfigChoice config;
    QString label() const;
    bool operator==(const CompareChoice&) const = default;
};

// Two configurations (of one run or of two open runs) side by side under a
// pinned reference (FullCache by default), all showing the one selected sample:
// question attention with evidence boxed and evicted entries greyed, answer and
// signature of each. Each panel may instead show a sample of its own (its sample
// chooser), so that two samples are compared under one configuration: A and B on the
// same configuration, each on its sample.
class ComparePanel : public QWidget
{
    Q_OBJECT
  public:
    explicit ComparePanel(QWidget* parent = nullptr);

    // Keeps the current picks where they are still offered. `keysByRun`: the sample keys
    // each open run holds (by path), offered by a panel's sample chooser when its
    // configuration belongs to that run.
    void setChoices(const QVector<CompareChoice>& choices,
                    const QHash<QString, QStringList>& keysByRun = {});
    // `runPath`: the run the key belongs to. A slot showing another run shows the
    // sample that run holds with the same content (store/samplematching), whatever its
    // id, and refuses a sample with no such match (same id, other content: never
    // paired). Empty: the run of the first choice (the window's current run).
    void setSample(const QString& sampleKey, const QString& runPath = {});
    QString sample() const { return m_sample; }
    // The key a slot shows (its run's id of the sample); empty when it is refused.
    QString slotSample(int slot) const { return m_slotSample[slot]; }
    // How the sample's run and the other picked run match, when a slot shows another
    // run ("8 matched by content ... · 2 mismatched ..."); empty otherwise.
    QString matchSummary() const;
    // 0 = reference, 1 = A, 2 = B.
    void pick(int slot, int choiceIndex);
    CompareChoice picked(int slot) const;
    // A sample of the slot's run for that slot alone (its id in that run, shown as is);
    // empty: the selected sample, as the other panels follow it. A key the slot's run
    // does not offer changes nothing.
    void pickSample(int slot, const QString& sampleKey);
    QString pickedSample(int slot) const;
    // What an empty panel says before it has a sample to show (empty: "pick a
    // configuration and a sample"); an imported run says what its source did not release.
    void setIdleHint(const QString& hint);
    HeatmapView* heatmap(int slot) const { return m_maps[slot]; }
    // The title of a slot's heatmap: configuration, answer, signature.
    QString caption(int slot) const;
    // Picks for A and B when the current ones are not offered (the window passes
    // its focus configuration and another compressor at the same ratio).
    void setPreferred(const CompareChoice& a, const CompareChoice& b);

  signals:
    // All three slots show the current sample.
    void detailsAvailable();

  private:
    void reload();
    // The slot's sample chooser: "the selected sample", then its run's keys; keeps the
    // key picked when the run still holds it.
    void fillSampleChooser(int slot);
    // What an empty panel says before it has a sample: setIdleHint's, else how to pick one.
    QString idleHint() const;

    QVector<CompareChoice> m_choices;
    QString m_sample;
    QString m_sampleRun;
    QString m_slotSample[3];
    QLabel* m_match;
    QComboBox* m_combos[3];
    QComboBox* m_sampleCombos[3];
    QHash<QString, QStringList> m_runSamples;
    QString m_idleHint; // empty: the default
    CompareChoice m_preferred[2];
    HeatmapView* m_maps[3];
    LatestRequest* m_request;
};

} // namespace kvl
