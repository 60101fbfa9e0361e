#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace kvl {

// What the window shows with no run open: open a run, or run the demo sweep on
// the bundled model (with its progress and Cancel while it runs).
class StartPage : public QWidget
{
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);

    QPushButton* openButton() const { return m_open; }
    QPushButton* demoButton() const { return m_demo; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }

    // done/total of the demo; total 0 = not known yet.
    void setRunning(bool running);
    void setProgress(int done, int total, const QString& text);
    void setMessage(const QString& text);

  signals:
    void openRequested();
    void demoRequested();
    void cancelRequested();

  private:
    QPushButton* m_open;
    QPushButton* m_demo;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_message;
};

} // namespace kvl
