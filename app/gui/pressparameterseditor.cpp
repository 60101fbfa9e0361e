#include "pressparameterseditor.h"

#include "common/presslist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace kvl {

namespace {

// A spin box for reals that shows them as written (0.2, 1e-09, 1e+30), not padded to a
// fixed number of decimals: press ranges span from 1e-9 to 1e30.
class RealSpinBox : public QDoubleSpinBox
{
  public:
    RealSpinBox()
    {
        setDecimals(12);
        setKeyboardTracking(false);
    }
    QString textFromValue(double value) const override { return QString::number(value, 'g', 10); }
    double valueFromText(const QString& text) const override { return text.toDouble(); }
    QValidator::State validate(QString& text, int&) const override
    {
        bool ok = false;
        const double v = text.toDouble(&ok);
        return ok && v >= minimum() && v <= maximum() ? QValidator::Acceptable
                                                      : QValidator::Intermediate;
    }
};

} // namespace

PressParametersEditor::PressParametersEditor(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("PressList"));
    m_list->setMinimumWidth(150);
    m_list->setMaximumWidth(200);
    row->addWidget(m_list);

    m_detail = new QWidget;
    auto* detail = new QVBoxLayout(m_detail);
    detail->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_rule = new QLabel;
    m_rule->setWordWrap(true);
    m_rule->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form = new QFormLayout;
    detail->addWidget(m_title);
    detail->addWidget(m_rule);
    detail->addLayout(m_form);
    detail->addStretch(1);
    row->addWidget(m_detail, 1);
    layout->addLayout(row, 1);

    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->hide();
    layout->addWidget(m_message);

    auto* other = new QFormLayout;
    m_other = new QLineEdit;
    m_other->setObjectName(QStringLiteral("OtherPresses"));
    m_other->setPlaceholderText(tr("e.g. composed(streamingllm+knorm)"));
    m_other->setToolTip(tr("Press specs the list does not hold, comma-separated "
                           "(name[(inner)][:param=value,...]; see kvlens-cli presses)"));
    other->addRow(tr("Other specs:"), m_other);
    layout->addLayout(other);

    connect(m_list, &QListWidget::currentItemChanged, this,
            [this](QListWidgetItem* item) { showPress(item ? item->text() : QString()); });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        // Specs go out in the order they were checked: a resumed run's order is its spec's.
        m_order.removeAll(item->text());
        if (item->checkState() == Qt::Checked)
            m_order << item->text();
        emit changed();
    });
    connect(m_other, &QLineEdit::textChanged, this, [this] { emit changed(); });
    showPress({});
}

void PressParametersEditor::setCatalogue(const QVector<PressInfo>& presses)
{
    const QStringList keep = specs();
    m_presses = presses;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (const PressInfo& p : m_presses) {
            auto* item = new QListWidgetItem(p.name, m_list);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            item->setToolTip(QStringLiteral("[%1] %2").arg(p.kind, p.rule));
        }
    }
    m_message->hide();
    setSpecs(keep);
    if (m_list->count() > 0 && !m_list->currentItem())
        m_list->setCurrentRow(0);
}

void PressParametersEditor::setCatalogueError(const QString& message)
{
    m_message->setText(
        tr("The list of presses is not available (%1); write press specs below.").arg(message));
    m_message->show();
}

const PressInfo* PressParametersEditor::press(const QString& name) const
{
    for (const PressInfo& p : m_presses)
        if (p.name == name)
            return &p;
    return nullptr;
}

QString PressParametersEditor::defaultInner(const PressInfo& p) const
{
    // A selector needs a scorer; snapkv is the one kvpress pairs them with most.
    if (p.takesScorer() && !p.innerOptional())
        return QStringLiteral("snapkv");
    return {};
}

QString PressParametersEditor::specOf(const PressInfo& p) const
{
    const State s = m_state.value(p.name, State{defaultInner(p), {}});
    return p.spec(s.inner, s.values);
}

QStringList PressParametersEditor::specs() const
{
    QStringList out;
    for (const QString& name : m_order)
        if (const PressInfo* p = press(name))
            out << specOf(*p);
    out << splitPressList(m_other->text());
    return out;
}

void PressParametersEditor::setSpecs(const QStringList& specs)
{
    QStringList other;
    const QSignalBlocker block(m_list);
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setCheckState(Qt::Unchecked);
    m_order.clear();
    for (const QString& spec : specs) {
        const PressSpecParts parts = splitPressSpec(spec);
        const PressInfo* p = press(parts.name);
        bool fits = p != nullptr && !parts.name.isEmpty();
        if (fits) {
            for (const QString& key : parts.order)
                fits = fits && p->param(key);
            fits = fits && (parts.inner.isEmpty() || p->takesScorer() || p->takesPress());
            // A second copy of one press (other parameters) needs its own line.
            fits = fits && !m_order.contains(p->name);
            // The list writes a spec back in its own form; keep others as written.
            if (fits && p->spec(parts.inner, parts.values) != spec.trimmed())
                fits = false;
        }
        // After the first free-text spec, all go there: the order is kept as given.
        if (!fits || !other.isEmpty()) {
            other << spec.trimmed();
            continue;
        }
        m_state[p->name] = State{parts.inner, parts.values};
        m_order << p->name;
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->text() == p->name)
                m_list->item(i)->setCheckState(Qt::Checked);
    }
    {
        const QSignalBlocker blockOther(m_other);
        m_other->setText(other.join(QStringLiteral(", ")));
    }
    showPress(m_current);
    emit changed();
}

QStringList PressParametersEditor::problems() const
{
    QStringList out;
    for (const QString& name : m_order) {
        const PressInfo* p = press(name);
        if (!p)
            continue;
        const State s = m_state.value(p->name, State{defaultInner(*p), {}});
        if (p->takesPress() && s.inner.trimmed().isEmpty())
            out << tr("%1: name the presses it wraps, e.g. %1(snapkv)").arg(p->name);
        if (p->takesScorer() && !p->innerOptional() && s.inner.trimmed().isEmpty())
            out << tr("%1: choose a scorer").arg(p->name);
        for (const PressParam& param : p->params) {
            const QString why = param.check(s.values.value(param.name));
            if (!why.isEmpty())
                out << QStringLiteral("%1: %2").arg(p->name, why);
        }
    }
    for (const QString& spec : splitPressList(m_other->text()))
        if (splitPressSpec(spec).name.isEmpty())
            out << tr("'%1' is not a press spec (name[(inner)][:param=value,...])").arg(spec);
    return out;
}

void PressParametersEditor::setCurrentPress(const QString& name)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->text() == name)
            m_list->setCurrentRow(i);
}

void PressParametersEditor::setChecked(const QString& name, bool checked)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->text() == name)
            m_list->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void PressParametersEditor::setParameter(const QString& pressName, const QString& param,
                                         const QString& value)
{
    if (const PressInfo* p = press(pressName)) {
        if (!m_state.contains(pressName))
            m_state.insert(pressName, State{defaultInner(*p), {}});
        m_state[pressName].values[param] = value;
        if (m_current == pressName)
            showPress(pressName);
        emit changed();
    }
}

void PressParametersEditor::setInner(const QString& pressName, const QString& inner)
{
    if (press(pressName)) {
        m_state[pressName].inner = inner;
        if (m_current == pressName)
            showPress(pressName);
        emit changed();
    }
}

void PressParametersEditor::showPress(const QString& name)
{
    m_current = name;
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    const PressInfo* p = press(name);
    m_detail->setVisible(p != nullptr);
    if (!p)
        return;
    if (!m_state.contains(name))
        m_state.insert(name, State{defaultInner(*p), {}});
    m_title->setText(QStringLiteral("%1 · %2").arg(p->name, p->kind));
    m_rule->setText(p->rule);

    if (p->takesScorer()) {
        auto* combo = new QComboBox;
        combo->setObjectName(QStringLiteral("InnerScorer"));
        if (p->innerOptional())
            combo->addItem(tr("(its default)"), QString());
        for (const PressInfo& s : m_presses)
            if (p->innerChoices.isEmpty() ? s.kind == QLatin1String("scorer")
                                          : p->innerChoices.contains(s.name))
                combo->addItem(s.name, s.name);
        combo->setCurrentIndex(std::max(0, combo->findData(m_state[name].inner)));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, name, combo] {
            m_state[name].inner = combo->currentData().toString();
            emit changed();
        });
        m_form->addRow(tr("Scorer:"), combo);
    } else if (p->takesPress()) {
        auto* edit = new QLineEdit(m_state[name].inner);
        edit->setObjectName(QStringLiteral("InnerPresses"));
        edit->setPlaceholderText(tr("e.g. snapkv or streamingllm+knorm"));
        connect(edit, &QLineEdit::textChanged, this, [this, name](const QString& text) {
            m_state[name].inner = text;
            emit changed();
        });
        m_form->addRow(tr("Presses:"), edit);
    }
    for (const PressParam& param : p->params) {
        const QString value = m_state[name].values.value(param.name);
        const QString shown = value.isEmpty() ? param.defaultValue : value;
        // A value the widget cannot hold (out of range, restored from a spec) stays
        // in a text field, so problems() names it instead of the widget clamping it.
        const bool fits = param.check(shown).isEmpty();
        const auto store = [this, name, param](const QString& v) {
            m_state[name].values[param.name] = v;
            emit changed();
        };
        QWidget* editor = nullptr;
        if (param.type == PressParam::Type::Bool) {
            auto* box = new QCheckBox;
            box->setChecked(shown == QLatin1String("true"));
            connect(box, &QCheckBox::toggled, this, [store](bool on) {
                store(on ? QStringLiteral("true") : QStringLiteral("false"));
            });
            editor = box;
        } else if (param.type == PressParam::Type::Choice && fits) {
            auto* combo = new QComboBox;
            combo->addItems(param.choices);
            combo->setCurrentIndex(std::max<qsizetype>(0, param.choices.indexOf(shown)));
            connect(combo, &QComboBox::currentTextChanged, this, store);
            editor = combo;
        } else if (param.type == PressParam::Type::Integer && param.bounded && fits) {
            auto* spin = new QSpinBox;
            spin->setRange(int(std::max<double>(param.min, INT_MIN)),
                           int(std::min<double>(param.max, INT_MAX)));
            spin->setValue(shown.toInt());
            spin->setKeyboardTracking(false);
            connect(spin, &QSpinBox::valueChanged, this,
                    [store](int v) { store(QString::number(v)); });
            editor = spin;
        } else if (param.type == PressParam::Type::Real && param.bounded && fits) {
            auto* spin = new RealSpinBox;
            spin->setRange(param.min, param.max);
            spin->setSingleStep(param.max - param.min <= 1.0 ? 0.05 : 1.0);
            spin->setValue(shown.toDouble());
            connect(spin, &QDoubleSpinBox::valueChanged, this,
                    [store](double v) { store(QString::number(v, 'g', 10)); });
            editor = spin;
        } else {
            auto* edit = new QLineEdit(value);
            edit->setPlaceholderText(param.defaultValue.isEmpty() ? tr("(none)")
                                                                  : param.defaultValue);
            connect(edit, &QLineEdit::textChanged, this,
                    [store](const QString& t) { store(t.trimmed()); });
            editor = edit;
        }
        QString tip = param.help;
        if (param.bounded)
            tip += QLatin1Char('\n') + tr("Range: %1 to %2")
                                           .arg(QString::number(param.min, 'g', 10),
                                                QString::number(param.max, 'g', 10));
        editor->setObjectName(QStringLiteral("param_") + param.name);
        editor->setToolTip(tip);
        auto* label = new QLabel(param.name + QLatin1Char(':'));
        label->setToolTip(tip);
        m_form->addRow(label, editor);
        auto* help = new QLabel(param.help);
        help->setWordWrap(true);
        help->setEnabled(false); // drawn dimmed: a note, not a value
        m_form->addRow(QString(), help);
    }
    if (p->params.isEmpty() && !p->takesScorer() && !p->takesPress())
        m_form->addRow(new QLabel(tr("No parameters.")));
}

} // namespace kvl
