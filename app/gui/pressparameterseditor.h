#pragma once

#include "pressinfo.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace kvl {

// The presses of a run: a checkable list of the catalogue `kvlens-cli presses --json`
// gives, and for the press in focus its rule, its inner scorer and one editor per
// parameter: a check box for a switch, a spin box over the press's range for a number,
// a combo box for a choice, a field showing the default else (types and ranges as the
// press's factory enforces them; a value outside them is named by problems()).
// Specs the list cannot hold (composed(...), aliases) go in a free-text line.
class PressParametersEditor : public QWidget
{
    Q_OBJECT
  public:
    explicit PressParametersEditor(QWidget* parent = nullptr);

    void setCatalogue(const QVector<PressInfo>& presses);
    const QVector<PressInfo>& catalogue() const { return m_presses; }
    // Shows why there is no catalogue (the CLI could not be asked).
    void setCatalogueError(const QString& message);

    // The checked presses' specs in the order checked, then the free-text ones.
    QStringList specs() const;
    // Checks the presses of `specs` and fills their parameters; a spec the list
    // cannot express goes to the free-text line.
    void setSpecs(const QStringList& specs);
    // Parameter values that do not fit, as "press: parameter: why".
    QStringList problems() const;

    // For tests and the dialog: the press in focus and its editors.
    void setCurrentPress(const QString& name);
    void setChecked(const QString& name, bool checked);
    void setParameter(const QString& press, const QString& param, const QString& value);
    void setInner(const QString& press, const QString& inner);

  signals:
    void changed();

  private:
    struct State
    {
        QString inner;
        QMap<QString, QString> values;
    };
    const PressInfo* press(const QString& name) const;
    QString specOf(const PressInfo& p) const;
    void showPress(const QString& name);
    QString defaultInner(const PressInfo& p) const;

    QVector<PressInfo> m_presses;
    QHash<QString, State> m_state;
    QStringList m_order; // checked presses, in the order checked
    QListWidget* m_list;
    QWidget* m_detail;
    QFormLayout* m_form;
    QLabel* m_title;
    QLabel* m_rule;
    QLabel* m_message;
    QLineEdit* m_other;
    QString m_current;
};

} // namespace kvl
