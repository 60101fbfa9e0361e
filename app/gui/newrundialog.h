#pragma once

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace kvl {

class RunProcess;
struct RunProgress;

// "New run": collects the sweep's inputs, starts `kvlens-cli run ...` as a
// child process and follows its progress, with Cancel terminating the child.
class NewRunDialog : public QDialog
{
    Q_OBJECT
  public:
    explicit NewRunDialog(QWidget* parent = nullptr);

    // The program started for a run; defaults to findCli().
    QString program() const { return m_program; }
    void setProgram(const QString& program) { m_program = program; }
    // Next to the app, then the build tree's app/cli, then PATH.
    static QString findCli();

    // The arguments passed to the program for the current form contents.
    QStringList arguments() const;
    RunProcess* process() const { return m_process; }

    void setModelPath(const QString& path);
    void setDatasetPath(const QString& path);
    void setCompressors(const QString& list);
    void setRatios(const QString& list);
    void setOutputPath(const QString& path);
    QString outputPath() const;

  public slots:
    void startRun();
    void cancelRun();

  signals:
    // The child exited; ok = exit code 0 and not cancelled.
    void runFinished(const QString& outputPath, bool ok);

  protected:
    void reject() override;

  private:
    void showProgress(const RunProgress& progress);
    void onFinished(bool ok, int exitCode, bool cancelled);
    void updateButtons();
    QLineEdit* addPathRow(QFormLayout* form, const QString& label, bool directory, bool save,
                          const QString& filter);

    QString m_program;
    RunProcess* m_process;
    QLineEdit* m_model;
    QLineEdit* m_dataset;
    QLineEdit* m_compressors;
    QLineEdit* m_ratios;
    QCheckBox* m_storeAttention = nullptr; // --store-attention all
    QLineEdit* m_output;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPlainTextEdit* m_log;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QDialogButtonBox* m_buttons;
};

} // namespace kvl
