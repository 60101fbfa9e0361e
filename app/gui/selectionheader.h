#pragma once

#include <QWidget>

class QLabel;

namespace kvl {

// The lines over every page: the selection it shows (page in bold, then run,
// configuration, sample and heads, so that a screenshot never leaves it to memory), and
// over the Failures pages the caveat when FullCache leaves little to diagnose.
class SelectionHeader : public QWidget
{
    Q_OBJECT
  public:
    explicit SelectionHeader(QWidget* parent = nullptr);

    // `line`: "Page · run: … · configuration: …" (selectionLine); `caveat` empty hides it.
    void setLines(const QString& line, const QString& caveat);

  private:
    QLabel* m_selection;
    QLabel* m_caveat;
};

} // namespace kvl
