#pragma once

#include <QToolBar>

class QComboBox;

namespace kvl {

class RunSession;

// The toolbar naming the focus every detail view follows: the configuration and the
// sample (or the mean over samples). It shows the session's focus and asks the session
// to change it, so it can never name another configuration than the pages.
class SelectionBar : public QToolBar
{
    Q_OBJECT
  public:
    explicit SelectionBar(QWidget* parent = nullptr);

    // Follows the session of the run shown; called again when another run is shown.
    void bind(RunSession* session);

    QComboBox* configurationChooser() const { return m_configs; }
    QComboBox* sampleChooser() const { return m_samples; }

  private:
    void update();

    RunSession* m_session = nullptr;
    QComboBox* m_configs = nullptr;
    QComboBox* m_samples = nullptr;
};

} // namespace kvl
