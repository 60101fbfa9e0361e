#pragma once

#include <QObject>
#include <QString>

class QMenu;
class QWidget;

namespace kvl {

class MainWindow;
class NewRunDialog;
class RunPage;

// The window's File menu: New run (the dialog, whose run is shown as its rows land), Open
// run, Close run, Export figure and data of the page shown, Quit. A figure or data leaves
// the app with provenance, so never from a run whose rows are still being verified.
class FileMenu : public QObject
{
    Q_OBJECT
  public:
    explicit FileMenu(MainWindow& window);

    QMenu* menu() const { return m_menu; }
    // A file dialog, then the run chosen is opened (File › Open run…, the start page).
    void askForRun();
    void showNewRunDialog();
    void exportFigure();
    void exportData();

  private:
    bool exportAllowed();
    // The page shown, written by `write` (its figure or its data); what went wrong, or
    // where it went, in the status bar.
    void exportPage(QString (*write)(QWidget*, const RunPage*));

    MainWindow& m_window;
    QMenu* m_menu = nullptr;
    NewRunDialog* m_newRun = nullptr;
};

} // namespace kvl
