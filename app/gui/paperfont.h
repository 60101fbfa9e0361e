#pragma once

#include <QApplication>
#include <QFont>

namespace kvl {

// Paper text sizes for the time of an export: the screen's font is too large for a
// 3.5 in column (titles and footers clip). Views take their fonts from the app's
// when built, so this goes first; the destructor gives the screen font back.
class PaperFont
{
  public:
    // 7 pt in a single column, 8 pt across two: journal body text is 9-10 pt.
    static double pointSizeFor(double widthInches) { return widthInches < 5.0 ? 7.0 : 8.0; }

    explicit PaperFont(double pointSize) : m_saved(QApplication::font())
    {
        QFont font = m_saved;
        font.setPointSizeF(pointSize);
        QApplication::setFont(font);
    }
    ~PaperFont() { QApplication::setFont(m_saved); }
    PaperFont(const PaperFont&) = delete;
    PaperFont& operator=(const PaperFont&) = delete;

  private:
    QFont m_saved;
};

} // namespace kvl
