#pragma once

#include "runpage.h"

class QComboBox;
class QLabel;

namespace kvl {

class AccuracyRatioView;
class BatchFigures;

// Overview › Accuracy: accuracy against ratio per compressor, over every suite or one
// (a chooser above the view when the run has several). A click on a point makes that
// configuration the focus of every detail view.
class AccuracyPage : public RunPage
{
    Q_OBJECT
  public:
    explicit AccuracyPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;

    AccuracyRatioView* view() const { return m_view; }
    QComboBox* suiteChooser() const { return m_suites; }
    // Over the curves: the samples the sweep skipped and the rows that failed, as the
    // status line says (hidden when none is missing).
    QLabel* missingLine() const { return m_missing; }

    // accuracy, and accuracy-<suite> with the accuracy-by-suite table for a run of several.
    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    void showRun(const RunViewData& data);
    void showSuite(const QString& suite);

    AccuracyRatioView* m_view = nullptr;
    QWidget* m_suiteRow = nullptr; // shown when the run has several suites
    QLabel* m_missing = nullptr;
    QComboBox* m_suites = nullptr;
    QString m_title; // the view's own; " · <suite>" added for one suite
};

} // namespace kvl
