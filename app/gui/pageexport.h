#pragma once

#include <QString>

class QWidget;

namespace kvl {

class RunPage;

// File › Export figure and Export data for the page shown: ask for a file (PDF, SVG or PNG;
// CSV), write the page's figure (its paired views as one) or its data, and return the line
// for the status bar ("Saved …", "Nothing to export …"; empty when the user cancelled). A
// write that fails shows a message box naming the file.
QString exportPageFigure(QWidget* parent, const RunPage* page);
QString exportPageData(QWidget* parent, const RunPage* page);

} // namespace kvl
