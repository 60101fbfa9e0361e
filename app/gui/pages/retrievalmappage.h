#pragma once

#include "retrievalviews.h"
#include "runpage.h"
#include "views/provenance.h"

#include <optional>

class QComboBox;
class QLabel;

namespace kvl {

class RetrievalMapView;

// The Offloading group's per-sample page: a chooser of the run's rows that store a
// retrieval map above the map of the chosen row (read from the run file when chosen:
// one small blob, so on the GUI thread).
class RetrievalMapPage : public RunPage
{
    Q_OBJECT
  public:
    explicit RetrievalMapPage(PageHost& host);

    // Lists the run's rows with maps when the overview lands.
    PlotView* exportedView() const override;
    // The row shown, whatever the toolbar's selection.
    ShownSelection shownSelection(const ShownSelection& focus) const override;

    // The run and its rows with maps; keeps the chosen row when it is still listed.
    void setRun(const QString& path, const QVector<RetrievalRowChoice>& rows,
                const Provenance& base);
    void clear() override;
    // Shows the row (sample, configuration); false when the run lists no such row.
    bool showRow(const QString& sampleKey, const QString& configKey);

    // The row drawn now (what the window's selection line names on this page).
    std::optional<RetrievalRowChoice> shownRow() const;

    RetrievalMapView* view() const { return m_view; }
    QComboBox* rowChooser() const { return m_rows; }

  signals:
    void rowShown();

  protected:
    void connectSession(RunSession* session) override;

  private:
    void loadChosen();

    QString m_path;
    QVector<RetrievalRowChoice> m_choices;
    Provenance m_base;
    QComboBox* m_rows;
    QLabel* m_message;
    RetrievalMapView* m_view;
};

} // namespace kvl
