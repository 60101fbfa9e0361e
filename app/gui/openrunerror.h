#pragma once

#include <QString>

class QWidget;

namespace kvl {

// A refused run file, in a window-modal message box naming the file and saying why. Not
// exec(): a modal loop would stall the live refresh and the demo while it is open.
void showOpenRunError(QWidget* parent, const QString& path, const QString& message);

} // namespace kvl
