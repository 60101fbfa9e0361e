#pragma once

#include <QCoreApplication>

class QMainWindow;

namespace kvl {

// The window's Help menu: About KVLens, the glossary of every metric and signature the
// views name, About Qt.
class HelpMenu
{
    Q_DECLARE_TR_FUNCTIONS(kvl::HelpMenu)
  public:
    static void addTo(QMainWindow* window);
};

} // namespace kvl
