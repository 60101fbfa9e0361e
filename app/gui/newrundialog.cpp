#include "newrundialog.h"

#include "runprocess.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
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

} // namespace

NewRunDialog::NewRunDialog(QWidget* parent)
    : QDialog(parent), m_program(findCli()), m_process(new RunProcess(this))
{
    setWindowTitle(tr("New run"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Runs every sample under FullCache and under each compressor × "
                                "ratio, in a separate kvlens-cli process. Finished samples are "
                                "kept in the run file even when the run is cancelled."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    m_model = addPathRow(form, tr("Model directory:"), true, false, {});
    m_dataset = addPathRow(form, tr("Samples (JSONL):"), false, false,
                           tr("Samples (*.jsonl);;All files (*)"));
    m_compressors = new QLineEdit(QStringLiteral("snapkv,tova,streamingllm"));
    m_compressors->setToolTip(tr("Comma-separated compressor names"));
    form->addRow(tr("Compressors:"), m_compressors);
    m_ratios = new QLineEdit(QStringLiteral("0.25,0.5,0.75"));
    m_ratios->setToolTip(tr("Comma-separated compression ratios (share of context KV removed)"));
    form->addRow(tr("Ratios:"), m_ratios);
    m_output =
        addPathRow(form, tr("Run file:"), false, true, tr("KVLens runs (*.kvl);;All files (*)"));
    m_storeAttention = new QCheckBox(tr("Store attention for every row"));
    m_storeAttention->setToolTip(
        tr("By default a run keeps the question attention of FullCache rows and of rows answered "
           "wrong only; with this, every row keeps it, so the Attention tab draws a compressor's "
           "own attention on the rows it answers right too (a larger run file)."));
    form->addRow(QString(), m_storeAttention);
    layout->addLayout(form);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v / %m samples"));
    layout->addWidget(m_progress);
    m_status = new QLabel(tr("Not started"));
    layout->addWidget(m_status);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Messages of kvlens-cli appear here."));
    m_log->setMinimumHeight(90);
    layout->addWidget(m_log, 1);

    m_buttons = new QDialogButtonBox;
    m_start = m_buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    m_cancel = m_buttons->addButton(tr("Cancel run"), QDialogButtonBox::DestructiveRole);
    m_buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(m_buttons);
    connect(m_start, &QPushButton::clicked, this, &NewRunDialog::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &NewRunDialog::cancelRun);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &NewRunDialog::reject);

    connect(m_process, &RunProcess::progressChanged, this, &NewRunDialog::showProgress);
    connect(m_process, &RunProcess::logLineAvailable, m_log, &QPlainTextEdit::appendPlainText);
    connect(m_process, &RunProcess::finished, this, &NewRunDialog::onFinished);
    connect(m_process, &RunProcess::failedToStart, this, [this](const QString& message) {
        m_status->setText(message);
        m_log->appendPlainText(message);
        updateButtons();
    });
    updateButtons();
    resize(620, 460);
}

QLineEdit* NewRunDialog::addPathRow(QFormLayout* form, const QString& label, bool directory,
                                    bool save, const QString& filter)
{
    auto* row = new QHBoxLayout;
    auto* edit = new QLineEdit;
    auto* browse = new QToolButton;
    browse->setText(tr("Browse…"));
    row->addWidget(edit, 1);
    row->addWidget(browse);
    form->addRow(label, row);
    connect(browse, &QToolButton::clicked, this, [this, edit, directory, save, filter, label] {
        QString path;
        if (directory)
            path = QFileDialog::getExistingDirectory(this, label, edit->text());
        else if (save)
            path = QFileDialog::getSaveFileName(this, label, edit->text(), filter);
        else
            path = QFileDialog::getOpenFileName(this, label, edit->text(), filter);
        if (!path.isEmpty())
            edit->setText(path);
    });
    return edit;
}

QString NewRunDialog::outputPath() const
{
    return m_output->text().trimmed();
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

QStringList NewRunDialog::arguments() const
{
    QStringList args{QStringLiteral("run")};
    const auto addOption = [&args](const char* name, const QString& value) {
        if (!value.trimmed().isEmpty())
            args << QLatin1String(name) << value.trimmed();
    };
    addOption("--model", m_model->text());
    addOption("--dataset", m_dataset->text());
    addOption("--press", m_compressors->text());
    addOption("--ratios", m_ratios->text());
    addOption("--out", m_output->text());
    if (m_storeAttention->isChecked())
        args << QStringLiteral("--store-attention") << QStringLiteral("all");
    return args;
}

void NewRunDialog::setModelPath(const QString& path)
{
    m_model->setText(path);
}

void NewRunDialog::setDatasetPath(const QString& path)
{
    m_dataset->setText(path);
}

void NewRunDialog::setCompressors(const QString& list)
{
    m_compressors->setText(list);
}

void NewRunDialog::setRatios(const QString& list)
{
    m_ratios->setText(list);
}

void NewRunDialog::setOutputPath(const QString& path)
{
    m_output->setText(path);
}

void NewRunDialog::startRun()
{
    if (m_process->isRunning())
        return;
    if (m_output->text().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a run file to write."));
        return;
    }
    m_log->clear();
    m_progress->setRange(0, 0); // busy until the first progress line
    m_status->setText(tr("Starting %1…").arg(QFileInfo(m_program).fileName()));
    m_log->appendPlainText(m_program + QLatin1Char(' ') + arguments().join(QLatin1Char(' ')));
    m_process->start(m_program, arguments());
    updateButtons();
}

void NewRunDialog::cancelRun()
{
    if (!m_process->isRunning())
        return;
    m_status->setText(tr("Cancelling…"));
    m_process->cancel();
}

void NewRunDialog::reject()
{
    // Closing the dialog while a run is going would orphan it; ask for Cancel first.
    if (m_process->isRunning()) {
        m_status->setText(tr("A run is in progress: cancel it before closing."));
        return;
    }
    QDialog::reject();
}

void NewRunDialog::showProgress(const RunProgress& p)
{
    m_progress->setRange(0, std::max(1, p.total));
    m_progress->setValue(std::min(p.done, std::max(1, p.total)));
    QString text = tr("%1 of %2 samples · elapsed %3 · remaining %4")
                       .arg(p.done)
                       .arg(p.total)
                       .arg(formatDuration(p.elapsedS), formatDuration(p.etaS));
    if (!std::isnan(p.accuracy))
        text += tr(" · accuracy %1").arg(p.accuracy, 0, 'f', 3);
    m_status->setText(text);
}

void NewRunDialog::onFinished(bool ok, int exitCode, bool cancelled)
{
    if (m_progress->maximum() == 0)
        m_progress->setRange(0, 1);
    if (cancelled)
        m_status->setText(tr("Cancelled. Finished samples are kept in the run file."));
    else if (ok)
        m_status->setText(tr("Finished."));
    else
        m_status->setText(
            tr("kvlens-cli stopped with exit code %1; see the messages above.").arg(exitCode));
    updateButtons();
    emit runFinished(m_output->text().trimmed(), ok);
}

void NewRunDialog::updateButtons()
{
    const bool running = m_process->isRunning();
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    for (QLineEdit* e : {m_model, m_dataset, m_compressors, m_ratios, m_output})
        e->setEnabled(!running);
}

} // namespace kvl
