#include "newrundialog.h"

#include "cliquery.h"
#include "common/error.h"
#include "latestrequest.h"
#include "pressparameterseditor.h"
#include "runlauncher.h"
#include "runprocess.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace kvl {

namespace {

QString formatDuration(double seconds)
{
    if (std::isnan(seconds) || seconds < 0)
        return QStringLiteral("–");
    const qint64 s = qint64(std::llround(seconds));
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QLabel* problemLabel()
{
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// Red for what blocks a launch, plain for information.
void showMessages(QLabel* label, const QStringList& problems, const QString& info = {})
{
    const QString text = problems.isEmpty() ? info : problems.join(QLatin1Char('\n'));
    label->setText(text);
    label->setStyleSheet(problems.isEmpty() ? QString() : QStringLiteral("color: #c0392b;"));
    label->setVisible(!text.isEmpty());
}

QString modelSummary(const QJsonObject& o)
{
    const double params = o.value(QLatin1String("parameters")).toDouble();
    const QString size = params >= 1e9   ? QStringLiteral("%1 B").arg(params / 1e9, 0, 'f', 1)
                         : params >= 1e6 ? QStringLiteral("%1 M").arg(params / 1e6, 0, 'f', 1)
                                         : QString::number(params);
    return QObject::tr("%1 · %2 parameters · %3 layers · %4 kv / %5 query heads")
        .arg(o.value(QLatin1String("architecture")).toString(), size)
        .arg(o.value(QLatin1String("num_layers")).toInt())
        .arg(o.value(QLatin1String("num_kv_heads")).toInt())
        .arg(o.value(QLatin1String("num_heads")).toInt());
}

} // namespace

NewRunDialog::NewRunDialog(QWidget* parent)
    : QDialog(parent), m_program(findCli()), m_launcher(new RunLauncher(this)),
      m_fileRequest(new LatestRequest(this)), m_pressQuery(new CliQuery(this)),
      m_suiteQuery(new CliQuery(this)), m_modelQuery(new CliQuery(this)),
      m_modelTimer(new QTimer(this))
{
    setWindowTitle(tr("New run"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Each sample runs under FullCache and every press × ratio in a "
                      "kvlens-cli child process; a cancelled run resumes from its file."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_form = new QWidget;
    auto* columns = new QHBoxLayout(m_form);
    columns->setContentsMargins(0, 0, 0, 0);
    auto* left = new QVBoxLayout;
    left->addWidget(createModelBox());
    left->addWidget(createSamplesBox());
    left->addStretch(1);
    columns->addLayout(left, 1);
    auto* pressBox = new QGroupBox(tr("Presses"));
    auto* pressLayout = new QVBoxLayout(pressBox);
    m_presses = new PressParametersEditor;
    pressLayout->addWidget(m_presses, 1);
    m_pressesStatus = problemLabel();
    pressLayout->addWidget(m_pressesStatus);
    auto* right = new QVBoxLayout;
    right->addWidget(pressBox, 1);
    right->addWidget(createOptionsBox());
    columns->addLayout(right, 1);
    // The form scrolls rather than squeezes on a laptop screen (1280 x 800).
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);
    layout->addWidget(createOutputBox()); // always in view: where the run goes

    auto* commandRow = new QHBoxLayout;
    // Wrapped, whole: a command cut at the edge cannot be checked by eye.
    m_command = new QPlainTextEdit;
    m_command->setObjectName(QStringLiteral("CommandLine"));
    m_command->setReadOnly(true);
    m_command->setMaximumHeight(3 * m_command->fontMetrics().lineSpacing() + 12);
    m_command->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_command->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_command->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_command->setToolTip(tr("The same run from a shell, e.g. on a server"));
    auto* copy = new QToolButton;
    copy->setText(tr("Copy"));
    connect(copy, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_command->toPlainText()); });
    commandRow->addWidget(new QLabel(tr("Command:")));
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(copy);
    layout->addLayout(commandRow);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v / %m samples"));
    m_progress->setTextVisible(false); // no count to show before the first progress line
    layout->addWidget(m_progress);
    m_status = new QLabel(tr("Not started"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Messages of kvlens-cli appear here."));
    m_log->setMinimumHeight(40);
    m_log->setMaximumHeight(70);
    layout->addWidget(m_log);
    // Progress and messages take room only once a run started: the form needs it first.
    m_progress->hide();
    m_log->hide();

    m_buttons = new QDialogButtonBox;
    m_start = m_buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    m_cancel = m_buttons->addButton(tr("Cancel run"), QDialogButtonBox::DestructiveRole);
    m_buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(m_buttons);
    connect(m_start, &QPushButton::clicked, this, &NewRunDialog::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &NewRunDialog::cancelRun);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &NewRunDialog::reject);

    connect(m_launcher, &RunLauncher::progressChanged, this, &NewRunDialog::showProgress);
    connect(m_launcher->process(), &RunProcess::logLineAvailable, m_log,
            &QPlainTextEdit::appendPlainText);
    connect(m_launcher, &RunLauncher::finished, this, &NewRunDialog::onFinished);
    connect(m_launcher, &RunLauncher::failedToStart, this, [this](const QString& message) {
        m_status->setText(message);
        m_log->appendPlainText(message);
        updateButtons();
    });

    connect(m_presses, &PressParametersEditor::changed, this, &NewRunDialog::validate);
    connect(m_pressQuery, &CliQuery::answered, this,
            [this](bool ok, const QByteArray& out, const QString& error) {
                QString why = error;
                if (ok) {
                    try {
                        m_presses->setCatalogue(
                            parsePressesJson(out, QStringLiteral("kvlens-cli presses --json")));
                        m_catalogueCheck = {Check::State::Ok, {}};
                    } catch (const Error& e) {
                        ok = false;
                        why = e.message();
                    }
                }
                if (!ok) {
                    m_catalogueCheck = {Check::State::Failed, why};
                    m_presses->setCatalogueError(why);
                }
                validate();
            });
    connect(m_suiteQuery, &CliQuery::answered, this,
            [this](bool ok, const QByteArray& out, const QString& error) {
                m_suiteError.clear();
                if (ok)
                    applySuites(out);
                else
                    m_suiteError = tr("The built-in suites are not available: %1").arg(error);
                validate();
            });
    connect(m_modelQuery, &CliQuery::answered, this,
            [this](bool ok, const QByteArray& out, const QString& error) {
                const QJsonObject info = QJsonDocument::fromJson(out).object();
                if (ok && !info.isEmpty()) {
                    m_modelCheck = {Check::State::Ok, modelSummary(info)};
                    m_modelDir = info.value(QLatin1String("dir")).toString(m_checkedModel);
                } else {
                    m_modelCheck = {Check::State::Failed, error};
                    m_modelDir.clear();
                }
                // JSONL files count tokens with this model's tokenizer: check them again.
                for (int i = 0; i < m_datasets->count(); ++i)
                    askDataset(m_datasets->item(i)->text());
                validate();
            });
    m_modelTimer->setSingleShot(true);
    m_modelTimer->setInterval(400); // a path being typed is asked about once it rests
    connect(m_modelTimer, &QTimer::timeout, this, &NewRunDialog::askModel);

    askCatalogues();
    askModel();
    updateButtons();
    validate();
    resize(1040, 760);
}

NewRunDialog::~NewRunDialog() = default;

QGroupBox* NewRunDialog::createModelBox()
{
    auto* box = new QGroupBox(tr("Model"));
    auto* layout = new QVBoxLayout(box);
    m_bundled = new QRadioButton(tr("Bundled model (kvlens-tiny)"));
    m_bundled->setChecked(true);
    m_directory = new QRadioButton(tr("Hugging Face directory:"));
    auto* group = new QButtonGroup(box);
    group->addButton(m_bundled);
    group->addButton(m_directory);
    auto* row = new QHBoxLayout;
    m_modelPath = new QLineEdit;
    m_modelPath->setPlaceholderText(tr("folder with config.json, *.safetensors, tokenizer.json"));
    auto* browse = new QToolButton;
    browse->setText(tr("Browse…"));
    row->addWidget(m_directory);
    row->addWidget(m_modelPath, 1);
    row->addWidget(browse);
    layout->addWidget(m_bundled);
    layout->addLayout(row);
    m_modelStatus = problemLabel();
    layout->addWidget(m_modelStatus);
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Model directory"), m_modelPath->text());
        if (!dir.isEmpty()) {
            m_modelPath->setText(dir);
            m_directory->setChecked(true);
        }
    });
    const auto changed = [this] {
        m_modelTimer->start();
        validate();
    };
    connect(m_bundled, &QRadioButton::toggled, this, changed);
    connect(m_modelPath, &QLineEdit::textEdited, this, [this] { m_directory->setChecked(true); });
    connect(m_modelPath, &QLineEdit::textChanged, this, changed);
    return box;
}

QGroupBox* NewRunDialog::createSamplesBox()
{
    auto* box = new QGroupBox(tr("Samples"));
    auto* layout = new QVBoxLayout(box);
    auto* suitesRow = new QHBoxLayout;
    m_suites = new QListWidget;
    m_suites->setObjectName(QStringLiteral("SuiteList"));
    m_suites->setMinimumHeight(92);
    m_suites->setMaximumHeight(110);
    suitesRow->addWidget(m_suites, 1);
    auto* suiteForm = new QFormLayout;
    m_n = new QSpinBox;
    m_n->setRange(1, 1000000);
    m_n->setValue(10);
    m_tokens = new QLineEdit(QStringLiteral("256:512"));
    m_tokens->setToolTip(tr("Context length in tokens of the model: MIN:MAX, or N for exactly N"));
    m_variant = new QComboBox;
    suiteForm->addRow(tr("Samples per suite:"), m_n);
    suiteForm->addRow(tr("Tokens:"), m_tokens);
    suiteForm->addRow(tr("Variant:"), m_variant);
    suitesRow->addLayout(suiteForm);
    layout->addWidget(new QLabel(tr("Built-in suites (generated for the model's tokenizer):")));
    layout->addLayout(suitesRow);

    layout->addWidget(new QLabel(tr("JSONL files:")));
    auto* filesRow = new QHBoxLayout;
    m_datasets = new QListWidget;
    m_datasets->setObjectName(QStringLiteral("DatasetList"));
    m_datasets->setMaximumHeight(64);
    filesRow->addWidget(m_datasets, 1);
    auto* fileButtons = new QVBoxLayout;
    auto* add = new QPushButton(tr("Add…"));
    auto* remove = new QPushButton(tr("Remove"));
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch(1);
    filesRow->addLayout(fileButtons);
    layout->addLayout(filesRow);
    m_samplesStatus = problemLabel();
    layout->addWidget(m_samplesStatus);

    connect(add, &QPushButton::clicked, this, [this] {
        addDatasets(QFileDialog::getOpenFileNames(this, tr("Samples (JSONL)"), {},
                                                  tr("Samples (*.jsonl);;All files (*)")));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        for (QListWidgetItem* item : m_datasets->selectedItems()) {
            m_datasetChecks.remove(item->text());
            delete item;
        }
        validate();
    });
    connect(m_suites, &QListWidget::itemChanged, this, [this] {
        updateVariants();
        validate();
    });
    connect(m_n, &QSpinBox::valueChanged, this, &NewRunDialog::validate);
    connect(m_tokens, &QLineEdit::textChanged, this, &NewRunDialog::validate);
    connect(m_variant, &QComboBox::currentIndexChanged, this, &NewRunDialog::validate);
    updateVariants();
    return box;
}

QGroupBox* NewRunDialog::createOptionsBox()
{
    auto* box = new QGroupBox(tr("Ratios and options"));
    auto* form = new QFormLayout(box);
    m_ratios = new QLineEdit(QStringLiteral("0.25, 0.5, 0.75"));
    m_ratios->setObjectName(QStringLiteral("Ratios"));
    m_ratios->setToolTip(tr("Compression ratios, comma-separated: the share of the context's "
                            "KV entries removed, each in [0, 1)"));
    form->addRow(tr("Ratios:"), m_ratios);
    auto* interventionRow = new QHBoxLayout;
    m_interventions = new QComboBox;
    m_interventions->addItem(tr("retained (default)"), QString());
    for (const QString& target : NewRunChoices::interventionTargets())
        if (target != QLatin1String("retained"))
            m_interventions->addItem(target, target);
    m_interventions->addItem(tr("none"), QStringLiteral("none"));
    m_interventions->setToolTip(
        tr("Rows that boost and sham re-answer: retained = C→W rows whose evidence is retained "
           "(EAR < 0.5); low_ear = any C→W row with EAR < 0.5; c_to_w; all; none"));
    m_beta = new QDoubleSpinBox;
    m_beta->setRange(0.01, 1000);
    m_beta->setValue(4.0);
    m_beta->setToolTip(tr("Boost factor on the evidence's attention"));
    interventionRow->addWidget(m_interventions, 1);
    interventionRow->addWidget(new QLabel(tr("β")));
    interventionRow->addWidget(m_beta);
    form->addRow(tr("Interventions:"), interventionRow);
    m_attention = new QComboBox;
    m_attention->addItem(tr("FullCache rows and failures"), QStringLiteral("failures"));
    m_attention->addItem(tr("every row (larger file)"), QStringLiteral("all"));
    m_attention->addItem(tr("none"), QStringLiteral("none"));
    form->addRow(tr("Store attention of:"), m_attention);
    auto* numbers = new QHBoxLayout;
    m_seed = new QSpinBox;
    m_seed->setRange(0, 2000000000);
    m_seed->setValue(1);
    m_maxNewTokens = new QSpinBox;
    m_maxNewTokens->setRange(0, 100000);
    m_maxNewTokens->setSpecialValueText(tr("auto"));
    m_maxNewTokens->setToolTip(tr("Decode limit; auto = gold answer length + 16"));
    m_threads = new QSpinBox;
    m_threads->setRange(0, 1024);
    m_threads->setSpecialValueText(tr("all"));
    numbers->addWidget(new QLabel(tr("Seed")));
    numbers->addWidget(m_seed);
    numbers->addWidget(new QLabel(tr("New tokens")));
    numbers->addWidget(m_maxNewTokens);
    numbers->addWidget(new QLabel(tr("Threads")));
    numbers->addWidget(m_threads);
    form->addRow(numbers);
    m_optionsStatus = problemLabel();
    form->addRow(m_optionsStatus);
    connect(m_ratios, &QLineEdit::textChanged, this, &NewRunDialog::validate);
    connect(m_interventions, &QComboBox::currentIndexChanged, this, &NewRunDialog::validate);
    connect(m_beta, &QDoubleSpinBox::valueChanged, this, &NewRunDialog::validate);
    connect(m_attention, &QComboBox::currentIndexChanged, this, &NewRunDialog::validate);
    for (QSpinBox* spin : {m_seed, m_maxNewTokens, m_threads})
        connect(spin, &QSpinBox::valueChanged, this, &NewRunDialog::validate);
    return box;
}

QGroupBox* NewRunDialog::createOutputBox()
{
    auto* box = new QGroupBox(tr("Run file"));
    m_outputBox = box;
    auto* layout = new QVBoxLayout(box);
    auto* row = new QHBoxLayout;
    m_output = new QLineEdit;
    m_output->setObjectName(QStringLiteral("RunFile"));
    m_output->setPlaceholderText(tr("where the run is written (.kvl)"));
    auto* browse = new QToolButton;
    browse->setText(tr("Browse…"));
    m_useSettings = new QPushButton(tr("Use its settings"));
    m_useSettings->setToolTip(
        tr("Fill the form from the experiment this file holds, so Start resumes it"));
    m_useSettings->hide();
    row->addWidget(m_output, 1);
    row->addWidget(browse);
    row->addWidget(m_useSettings);
    layout->addLayout(row);
    m_outputStatus = problemLabel();
    layout->addWidget(m_outputStatus);
    connect(browse, &QToolButton::clicked, this, [this] {
        QFileDialog dialog(this, tr("Run file"), m_output->text(),
                           tr("KVLens runs (*.kvl);;All files (*)"));
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        // An existing file is resumed or refused below, never silently replaced.
        dialog.setOption(QFileDialog::DontConfirmOverwrite);
        dialog.setDefaultSuffix(QStringLiteral("kvl"));
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
            m_output->setText(dialog.selectedFiles().first());
    });
    connect(m_output, &QLineEdit::textChanged, this, &NewRunDialog::validate);
    connect(m_useSettings, &QPushButton::clicked, this, &NewRunDialog::useRunFileSettings);
    return box;
}

QString NewRunDialog::findCli()
{
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& candidate :
         {dir + QStringLiteral("/kvlens-cli"), dir + QStringLiteral("/../cli/kvlens-cli")}) {
        if (QFileInfo(candidate).isExecutable())
            return QDir::cleanPath(candidate);
    }
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("kvlens-cli"));
    return onPath.isEmpty() ? QStringLiteral("kvlens-cli") : onPath;
}

void NewRunDialog::setProgram(const QString& program)
{
    m_program = program;
    askCatalogues();
    askModel();
    validate();
}

void NewRunDialog::askCatalogues()
{
    m_catalogueCheck = {Check::State::Pending, {}};
    m_pressQuery->ask(m_program, {QStringLiteral("presses"), QStringLiteral("--json")});
    m_suiteQuery->ask(m_program,
                      {QStringLiteral("tasks"), QStringLiteral("list"), QStringLiteral("--json")});
}

void NewRunDialog::askModel()
{
    m_modelTimer->stop();
    const QString model = choices().model;
    m_checkedModel = model;
    m_modelDir.clear();
    if (model.isEmpty()) {
        m_modelCheck = {Check::State::Failed, tr("Choose a model directory.")};
        validate();
        return;
    }
    m_modelCheck = {Check::State::Pending, {}};
    m_modelQuery->ask(m_program, {QStringLiteral("info"), QStringLiteral("--model"), model});
    validate();
}

void NewRunDialog::askDataset(const QString& path)
{
    CliQuery*& query = m_datasetQueries[path];
    if (!query) {
        query = new CliQuery(this);
        connect(query, &CliQuery::answered, this,
                [this, path](bool ok, const QByteArray& out, const QString& error) {
                    if (!m_datasetChecks.contains(path))
                        return; // removed meanwhile
                    const QJsonObject o = QJsonDocument::fromJson(out).object();
                    m_datasetChecks[path] =
                        ok ? Check{Check::State::Ok, tr("%1: %n sample(s)", nullptr,
                                                        o.value(QLatin1String("samples")).toInt())
                                                         .arg(QFileInfo(path).fileName())}
                           : Check{Check::State::Failed, error};
                    validate();
                });
    }
    m_datasetChecks[path] = {Check::State::Pending, {}};
    QStringList args{QStringLiteral("tasks"), QStringLiteral("validate"), path};
    // Spans must cover tokens of the model that will read them.
    if (!m_modelDir.isEmpty())
        args << QStringLiteral("--model") << m_modelDir;
    query->ask(m_program, args);
}

void NewRunDialog::addDatasets(const QStringList& paths)
{
    for (const QString& path : paths) {
        if (path.isEmpty() || !m_datasets->findItems(path, Qt::MatchExactly).isEmpty())
            continue;
        m_datasets->addItem(path);
        m_datasetChecks.insert(path, {});
        askDataset(path);
    }
    validate();
}

void NewRunDialog::applySuites(const QByteArray& json)
{
    m_suiteJson = QJsonDocument::fromJson(json).object();
    QStringList chosen = m_pendingSuites;
    {
        const QSignalBlocker block(m_suites);
        for (int i = 0; i < m_suites->count(); ++i)
            if (m_suites->item(i)->checkState() == Qt::Checked)
                chosen << m_suites->item(i)->text();
        m_suites->clear();
        for (const QJsonValue& v : m_suiteJson.value(QLatin1String("suites")).toArray()) {
            const QJsonObject s = v.toObject();
            auto* item = new QListWidgetItem(s.value(QLatin1String("name")).toString(), m_suites);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(chosen.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
            item->setToolTip(s.value(QLatin1String("description")).toString());
        }
    }
    // A suite the CLI does not know stays chosen, so the check below names it.
    QStringList unknown;
    for (const QString& s : chosen)
        if (m_suites->findItems(s, Qt::MatchExactly).isEmpty())
            unknown << s;
    m_pendingSuites = unknown;
    updateVariants();
}

void NewRunDialog::updateVariants()
{
    QStringList checked;
    for (int i = 0; i < m_suites->count(); ++i)
        if (m_suites->item(i)->checkState() == Qt::Checked)
            checked << m_suites->item(i)->text();
    const QString keep =
        m_pendingVariant.isEmpty() ? m_variant->currentData().toString() : m_pendingVariant;
    const QSignalBlocker block(m_variant);
    m_variant->clear();
    m_variant->addItem(tr("each sample draws one"), QString());
    // One --variant goes to every suite: offered when one suite is chosen.
    if (checked.size() == 1)
        for (const QJsonValue& v : m_suiteJson.value(QLatin1String("suites")).toArray())
            if (v.toObject().value(QLatin1String("name")).toString() == checked.first())
                for (const QJsonValue& variant :
                     v.toObject().value(QLatin1String("variants")).toArray())
                    m_variant->addItem(variant.toObject().value(QLatin1String("name")).toString(),
                                       variant.toObject().value(QLatin1String("name")).toString());
    if (!keep.isEmpty() && m_variant->findData(keep) < 0 && m_suites->count() == 0)
        m_variant->addItem(keep, keep); // chosen before the list arrived
    m_variant->setCurrentIndex(std::max(0, m_variant->findData(keep)));
    if (m_suites->count() > 0)
        m_pendingVariant.clear();
    m_variant->setEnabled(m_variant->count() > 1);
}

NewRunChoices NewRunDialog::choices() const
{
    NewRunChoices c;
    c.model = m_bundled->isChecked() ? QStringLiteral("bundled") : m_modelPath->text().trimmed();
    c.suites = m_pendingSuites;
    for (int i = 0; i < m_suites->count(); ++i)
        if (m_suites->item(i)->checkState() == Qt::Checked)
            c.suites << m_suites->item(i)->text();
    c.n = m_n->value();
    c.tokens = m_tokens->text().trimmed();
    c.variant = c.suites.isEmpty() ? QString() : m_variant->currentData().toString();
    for (int i = 0; i < m_datasets->count(); ++i)
        c.datasets << m_datasets->item(i)->text();
    c.presses = m_presses->specs();
    c.ratios.clear();
    for (const QString& r : m_ratios->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!r.trimmed().isEmpty())
            c.ratios << r.trimmed();
    c.seed = m_seed->value();
    c.interventions = m_interventions->currentData().toString();
    c.beta = m_beta->value();
    c.storeAttention = m_attention->currentData().toString();
    c.maxNewTokens = m_maxNewTokens->value();
    c.threads = m_threads->value();
    c.out = m_output->text().trimmed();
    return c;
}

void NewRunDialog::setChoices(const NewRunChoices& c)
{
    if (c.model == QLatin1String("bundled")) {
        m_bundled->setChecked(true);
    } else {
        m_modelPath->setText(c.model);
        m_directory->setChecked(true);
    }
    {
        const QSignalBlocker block(m_suites);
        m_pendingSuites.clear();
        for (int i = 0; i < m_suites->count(); ++i)
            m_suites->item(i)->setCheckState(
                c.suites.contains(m_suites->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
        for (const QString& s : c.suites)
            if (m_suites->findItems(s, Qt::MatchExactly).isEmpty())
                m_pendingSuites << s;
    }
    m_pendingVariant = c.variant;
    updateVariants();
    m_n->setValue(c.n);
    m_tokens->setText(c.tokens);
    m_datasets->clear();
    m_datasetChecks.clear();
    addDatasets(c.datasets);
    m_presses->setSpecs(c.presses);
    m_ratios->setText(c.ratios.join(QStringLiteral(", ")));
    m_seed->setValue(int(c.seed));
    m_interventions->setCurrentIndex(std::max(0, m_interventions->findData(c.interventions)));
    m_beta->setValue(c.beta);
    m_attention->setCurrentIndex(std::max(0, m_attention->findData(c.storeAttention)));
    m_maxNewTokens->setValue(c.maxNewTokens);
    m_threads->setValue(c.threads);
    m_output->setText(c.out);
    askModel();
}

void NewRunDialog::setOutputPath(const QString& path)
{
    m_output->setText(path);
}

QString NewRunDialog::outputPath() const
{
    return m_output->text().trimmed();
}

QString NewRunDialog::commandLine() const
{
    return shellCommand(m_program, arguments());
}

bool NewRunDialog::checking() const
{
    if (m_modelCheck.state == Check::State::Pending || m_modelTimer->isActive() ||
        m_catalogueCheck.state == Check::State::Pending || m_suiteQuery->isPending())
        return true;
    for (const Check& c : m_datasetChecks)
        if (c.state == Check::State::Pending)
            return true;
    return m_fileInspecting;
}

bool NewRunDialog::waitForChecks(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (checking() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return !checking();
}

QStringList NewRunDialog::problems() const
{
    const NewRunChoices c = choices();
    QStringList out;
    for (const NewRunProblem& p : c.problems())
        out << p.message;
    if (m_modelCheck.state == Check::State::Failed && !c.model.isEmpty())
        out << m_modelCheck.message;
    for (const QString& f : c.datasets)
        if (m_datasetChecks.value(f).state == Check::State::Failed)
            out << m_datasetChecks.value(f).message;
    for (const QString& s : m_pendingSuites)
        if (m_suites->count() > 0)
            out << tr("Unknown suite '%1'.").arg(s);
    out << m_presses->problems();
    if (m_fileState.kind == RunFileState::Kind::OtherRun)
        out << tr("%1 holds another experiment (its spec differs in '%2'): choose a new file, "
                  "or use its settings to resume it.")
                   .arg(QFileInfo(c.out).fileName(), m_fileState.detail);
    else if (m_fileState.kind == RunFileState::Kind::NotARun)
        out << tr("%1 exists and is not a run file (%2): choose a new file.")
                   .arg(QFileInfo(c.out).fileName(), m_fileState.detail);
    return out;
}

void NewRunDialog::validate()
{
    using Part = NewRunProblem::Part;
    const NewRunChoices c = choices();
    const QVector<NewRunProblem> problems = c.problems();
    const auto of = [&problems](Part part) {
        QStringList list;
        for (const NewRunProblem& p : problems)
            if (p.part == part)
                list << p.message;
        return list;
    };

    QStringList model = of(Part::Model);
    QString modelInfo;
    if (c.model != m_checkedModel || m_modelCheck.state == Check::State::Pending)
        modelInfo = tr("Checking the model…");
    else if (m_modelCheck.state == Check::State::Failed && !c.model.isEmpty())
        model << m_modelCheck.message;
    else if (m_modelCheck.state == Check::State::Ok)
        modelInfo = m_modelCheck.message;
    showMessages(m_modelStatus, model, modelInfo);
    m_modelPath->setEnabled(m_directory->isChecked() && !m_launcher->isRunning());

    QStringList samples = of(Part::Samples);
    QStringList sampleInfo;
    for (const QString& f : c.datasets) {
        const Check check = m_datasetChecks.value(f);
        if (check.state == Check::State::Failed)
            samples << check.message;
        else if (check.state == Check::State::Pending)
            sampleInfo << tr("%1: checking…").arg(QFileInfo(f).fileName());
        else
            sampleInfo << check.message;
    }
    if (m_suites->count() > 0)
        for (const QString& s : m_pendingSuites)
            samples << tr("Unknown suite '%1'.").arg(s);
    if (!c.suites.isEmpty() && !c.datasets.isEmpty())
        sampleInfo.prepend(
            tr("%1 suite samples and the JSONL files' samples").arg(c.n * c.suites.size()));
    else if (!c.suites.isEmpty())
        sampleInfo.prepend(tr("%n sample(s)", nullptr, int(c.n * c.suites.size())));
    if (!m_suiteError.isEmpty())
        sampleInfo.prepend(m_suiteError);
    showMessages(m_samplesStatus, samples, sampleInfo.join(QLatin1Char('\n')));

    QStringList presses = m_presses->problems();
    showMessages(m_pressesStatus, presses,
                 c.presses.isEmpty() ? tr("No press: FullCache rows only.")
                                     : tr("Presses: %1").arg(c.presses.join(QStringLiteral("  "))));

    showMessages(m_optionsStatus, of(Part::Ratios) + of(Part::Options));

    // The run file: new, the same experiment (resumed) or another one (refused).
    QStringList output = of(Part::Output);
    QString outputInfo;
    if (output.isEmpty() && problems.isEmpty()) {
        if (!m_reuseInspection)
            inspectOutput(c.out, c.expectedSpec());
        if (m_fileInspecting)
            outputInfo = tr("Checking the run file…");
        else
            switch (m_fileState.kind) {
            case RunFileState::Kind::Absent:
                outputInfo = tr("A new run file.");
                break;
            case RunFileState::Kind::SameRun:
                outputInfo =
                    m_fileState.status == QLatin1String("finished")
                        ? tr("Holds this experiment, finished (%n sample(s)); starting again "
                             "only re-reads it.",
                             nullptr, int(m_fileState.finished))
                        : tr("Holds this experiment with %n sample(s) finished: Start "
                             "resumes it.",
                             nullptr, int(m_fileState.finished));
                break;
            case RunFileState::Kind::OtherRun:
                output << tr("Holds another experiment (%n sample(s); its spec differs in '%1'): "
                             "choose a new file, or use its settings to resume it.",
                             nullptr, int(m_fileState.finished))
                              .arg(m_fileState.detail);
                break;
            case RunFileState::Kind::NotARun:
                output << tr("Exists and is not a run file (%1): choose a new file.")
                              .arg(m_fileState.detail);
                break;
            }
    } else {
        m_fileRequest->cancel();
        m_fileInspecting = false;
        m_fileState = {};
    }
    if (output.isEmpty() && !problems.isEmpty() && QFileInfo::exists(c.out)) {
        outputInfo = tr("An existing file: it is compared with the experiment once the form "
                        "is complete.");
    }
    m_useSettings->setVisible(m_fileState.kind == RunFileState::Kind::OtherRun);
    showMessages(m_outputStatus, output, outputInfo);

    if (m_command->toPlainText() != commandLine())
        m_command->setPlainText(commandLine());
    m_beta->setEnabled(m_interventions->currentData().toString() != QLatin1String("none"));
    updateButtons();
}

void NewRunDialog::inspectOutput(const QString& path, const QJsonObject& expectedSpec)
{
    m_fileState = {};
    m_fileInspecting = true;
    auto show = [this](const RunFileState& state) {
        m_fileState = state;
        m_fileInspecting = false;
        m_reuseInspection = true;
        validate();
        m_reuseInspection = false;
    };
    m_fileRequest->run<RunFileState>(
        [path, expectedSpec] { return inspectRunFile(path, expectedSpec); }, show,
        [show](const QString& message) {
            RunFileState state;
            state.kind = RunFileState::Kind::NotARun;
            state.detail = message;
            show(state);
        });
}

void NewRunDialog::useRunFileSettings()
{
    const QString out = outputPath();
    RunFileState state = inspectRunFile(out, {});
    if (state.spec.isEmpty())
        return;
    QString why;
    NewRunChoices c = NewRunChoices::fromSpec(state.spec, &why);
    c.out = out;
    setChoices(c);
    if (!why.isEmpty())
        m_status->setText(tr("The file's spec uses what this form cannot set (%1); resume it with "
                             "kvlens-cli run --spec.")
                              .arg(why));
}

bool NewRunDialog::startRun()
{
    if (m_launcher->isRunning())
        return false;
    // The form as it stands, with the run file as last inspected (the CLI refuses a file
    // of another experiment in any case).
    m_reuseInspection = true;
    validate();
    m_reuseInspection = false;
    if (checking()) {
        m_status->setText(tr("Still checking the choices with kvlens-cli; start again in a "
                             "moment."));
        return false;
    }
    const QStringList blocking = problems();
    if (!blocking.isEmpty()) {
        m_status->setText(tr("Not started: %1").arg(blocking.first()));
        return false;
    }
    const bool resume = m_fileState.kind == RunFileState::Kind::SameRun;
    m_progress->show();
    m_log->show();
    m_progress->setRange(0, 0); // busy until the first progress line
    m_progress->setValue(0);
    m_status->setText(resume ? tr("Resuming %1…").arg(QFileInfo(outputPath()).fileName())
                             : tr("Starting %1…").arg(QFileInfo(m_program).fileName()));
    m_log->appendPlainText(QStringLiteral("$ ") + commandLine());
    m_launcher->start(m_program, arguments(), outputPath());
    updateButtons();
    return true;
}

RunProcess* NewRunDialog::process() const
{
    return m_launcher->process();
}

void NewRunDialog::cancelRun()
{
    if (!m_launcher->isRunning())
        return;
    m_status->setText(tr("Cancelling…"));
    m_launcher->cancel();
}

void NewRunDialog::reject()
{
    // Closing the dialog while a run is going would orphan it; ask for Cancel first.
    if (m_launcher->isRunning()) {
        m_status->setText(tr("A run is in progress: cancel it before closing."));
        return;
    }
    QDialog::reject();
}

void NewRunDialog::showProgress(const RunProgress& p)
{
    m_progress->setTextVisible(true);
    m_progress->setRange(0, std::max(1, p.total));
    m_progress->setValue(std::min(p.done, std::max(1, p.total)));
    QString text = tr("%1 of %2 samples · elapsed %3 · remaining %4")
                       .arg(p.done)
                       .arg(p.total)
                       .arg(formatDuration(p.elapsedS), formatDuration(p.etaS));
    if (!std::isnan(p.etaS) && p.etaS >= 60)
        text += tr(" (done at %1)")
                    .arg(QDateTime::currentDateTime()
                             .addSecs(qint64(p.etaS))
                             .toString(QStringLiteral("HH:mm")));
    if (!std::isnan(p.accuracy))
        text += tr(" · accuracy %1").arg(p.accuracy, 0, 'f', 3);
    m_status->setText(text);
}

void NewRunDialog::onFinished(bool ok, int exitCode, bool cancelled)
{
    if (m_progress->maximum() == 0)
        m_progress->setRange(0, 1);
    validate(); // the run file now holds this experiment: Start reads "Resume"
    if (cancelled)
        m_status->setText(tr("Cancelled: %n finished sample(s) are in the run file; Resume "
                             "continues it.",
                             nullptr, m_launcher->process()->lastProgress().done));
    else if (ok)
        m_status->setText(tr("Finished."));
    else
        m_status->setText(
            tr("kvlens-cli stopped with exit code %1; see the messages below.").arg(exitCode));
    emit runFinished(outputPath(), ok);
}

void NewRunDialog::updateButtons()
{
    const bool running = m_launcher->isRunning();
    const bool resumable = m_fileState.kind == RunFileState::Kind::SameRun &&
                           m_fileState.status != QLatin1String("finished");
    m_start->setText(resumable ? tr("Resume") : tr("Start"));
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_form->setEnabled(!running);
    m_outputBox->setEnabled(!running);
}

} // namespace kvl
