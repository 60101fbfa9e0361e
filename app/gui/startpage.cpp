#include "startpage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace kvl {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), m_open(new QPushButton(tr("Open run…"))),
      m_demo(new QPushButton(tr("Run the demo"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_progress(new QProgressBar), m_message(new QLabel)
{
    setObjectName(QStringLiteral("StartPage"));
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(2);
    auto* title = new QLabel(tr("<h1>KVLens</h1>"));
    title->setAlignment(Qt::AlignCenter);
    outer->addWidget(title);
    auto* intro = new QLabel(
        tr("See why a compressed KV cache makes a model fail: accuracy against the compression "
           "ratio, failure signatures, which heads evicted the evidence.\n"
           "Open a run file written by kvlens-cli, or run a small demo sweep on the bundled "
           "model (a few minutes; the views fill in as samples finish)."));
    intro->setWordWrap(true);
    intro->setAlignment(Qt::AlignCenter);
    intro->setMaximumWidth(620);
    auto* introRow = new QHBoxLayout;
    introRow->addStretch();
    introRow->addWidget(intro);
    introRow->addStretch();
    outer->addLayout(introRow);
    outer->addSpacing(16);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    for (QPushButton* b : {m_open, m_demo}) {
        b->setMinimumSize(180, 44);
        buttons->addWidget(b);
    }
    m_demo->setDefault(true);
    buttons->addStretch();
    outer->addLayout(buttons);
    outer->addSpacing(12);

    auto* progressRow = new QHBoxLayout;
    progressRow->addStretch();
    m_progress->setMinimumWidth(360);
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_cancel);
    progressRow->addStretch();
    outer->addLayout(progressRow);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    outer->addWidget(m_message);
    outer->addStretch(3);

    connect(m_open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_demo, &QPushButton::clicked, this, &StartPage::demoRequested);
    connect(m_cancel, &QPushButton::clicked, this, &StartPage::cancelRequested);
    setRunning(false);
}

void StartPage::setRunning(bool running)
{
    m_demo->setEnabled(!running);
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0); // busy until the first progress line
        m_message->setText(tr("Starting the demo sweep…"));
    }
}

void StartPage::setProgress(int done, int total, const QString& text)
{
    if (total > 0) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    }
    m_message->setText(text);
}

void StartPage::setMessage(const QString& text)
{
    m_message->setText(text);
}

} // namespace kvl
