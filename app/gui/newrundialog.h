#pragma once

#include "newrunchoices.h"

#include <QDialog>
#include <QHash>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTimer;

namespace kvl {

class CliQuery;
class LatestRequest;
class PressParametersEditor;
class RunLauncher;
class RunProcess;
struct RunProgress;

// "New run": the model (bundled or a Hugging Face directory, checked with
// `kvlens-cli info`), samples (built-in suites or JSONL files, checked with `tasks
// validate`), presses with their parameters (from `presses --json`), ratios,
// interventions and storage, and the run file (a run of the same spec is resumed,
// another one refused). Shows the equivalent command, checks everything before
// launch, then runs `kvlens-cli run ...` as a child with progress and ETA; Cancel
// stops it and leaves a file that opens and resumes.
class NewRunDialog : public QDialog
{
    Q_OBJECT
  public:
    explicit NewRunDialog(QWidget* parent = nullptr);
    ~NewRunDialog() override;

    // The program started for a run and asked for models, suites and presses;
    // defaults to findCli(). Setting it asks it again.
    QString program() const { return m_program; }
    void setProgram(const QString& program);
    // Next to the app, then the build tree's app/cli, then PATH.
    static QString findCli();

    NewRunChoices choices() const;
    void setChoices(const NewRunChoices& choices);
    // The arguments passed to the program for the current form contents.
    QStringList arguments() const { return choices().arguments(); }
    // The command a researcher can paste into a shell (on a server, say).
    QString commandLine() const;
    // What stops a launch now, one message each; empty = ready.
    QStringList problems() const;
    // True while the CLI is still answering (model, suites, presses, JSONL checks).
    bool checking() const;
    // Waits (event loop) until no check is pending; false on timeout. For tests.
    bool waitForChecks(int timeoutMs = 30000);
    RunFileState runFileState() const { return m_fileState; }
    PressParametersEditor* pressEditor() const { return m_presses; }
    RunProcess* process() const;
    // The sweep the dialog launched: the window opens its file as samples land.
    RunLauncher* launcher() const { return m_launcher; }

    void setOutputPath(const QString& path);
    QString outputPath() const;

  public slots:
    // False (and a message) when a check fails or the run file holds another run.
    bool startRun();
    void cancelRun();
    // Fills the form from the spec the run file holds, so Start resumes it.
    void useRunFileSettings();

  signals:
    // The child exited; ok = exit code 0 and not cancelled.
    void runFinished(const QString& outputPath, bool ok);

  protected:
    void reject() override;

  private:
    QGroupBox* createModelBox();
    QGroupBox* createSamplesBox();
    QGroupBox* createOptionsBox();
    QGroupBox* createOutputBox();
    void askCatalogues();
    void askModel();
    void askDataset(const QString& path);
    void applySuites(const QByteArray& json);
    void updateVariants();
    void addDatasets(const QStringList& paths);
    void validate();
    // Reads what the output path holds on a worker thread (a large run file takes a
    // while); validate() shows "checking" until it lands.
    void inspectOutput(const QString& path, const QJsonObject& expectedSpec);
    void showProgress(const RunProgress& progress);
    void onFinished(bool ok, int exitCode, bool cancelled);
    void updateButtons();

    struct Check
    {
        enum class State
        {
            Pending,
            Ok,
            Failed
        } state = State::Pending;
        QString message;
    };

    QString m_program;
    RunLauncher* m_launcher;
    CliQuery* m_pressQuery;
    CliQuery* m_suiteQuery;
    CliQuery* m_modelQuery;
    QHash<QString, CliQuery*> m_datasetQueries;
    QHash<QString, Check> m_datasetChecks;
    Check m_modelCheck;
    QString m_modelDir; // the directory `info` resolved ("bundled" -> its path)
    QString m_checkedModel;
    Check m_catalogueCheck;
    QStringList m_pendingSuites; // chosen before the list arrived
    QString m_pendingVariant;
    QTimer* m_modelTimer;
    RunFileState m_fileState;
    LatestRequest* m_fileRequest;
    bool m_fileInspecting = false;
    bool m_reuseInspection = false; // validate() shows the inspection it has
    QJsonObject m_suiteJson;
    QString m_suiteError;

    QWidget* m_form;
    QRadioButton* m_bundled;
    QRadioButton* m_directory;
    QLineEdit* m_modelPath;
    QLabel* m_modelStatus;
    QListWidget* m_suites;
    QSpinBox* m_n;
    QLineEdit* m_tokens;
    QComboBox* m_variant;
    QListWidget* m_datasets;
    QLabel* m_samplesStatus;
    PressParametersEditor* m_presses;
    QLabel* m_pressesStatus;
    QLineEdit* m_ratios;
    QComboBox* m_interventions;
    QDoubleSpinBox* m_beta;
    QComboBox* m_attention;
    QSpinBox* m_seed;
    QSpinBox* m_maxNewTokens;
    QSpinBox* m_threads;
    QLabel* m_optionsStatus;
    QGroupBox* m_outputBox;
    QLineEdit* m_output;
    QLabel* m_outputStatus;
    QPushButton* m_useSettings;
    QPlainTextEdit* m_command;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPlainTextEdit* m_log;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QDialogButtonBox* m_buttons;
};

} // namespace kvl
