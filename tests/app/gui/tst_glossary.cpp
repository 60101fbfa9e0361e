// The glossary (views/glossary.h) is one list, checked both ways: every failure signature
// the classifier assigns and every metric column of the rows has its definition (and the
// app shows it as a tooltip), and every term of the glossary is a word the app's own
// texts use, so no entry explains something the views never show.
#include "diagnose/signature.h"
#include "mainwindow.h"
#include "resultrowsmodel.h"
#include "views/glossary.h"
#include "views/signaturenames.h"

#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace kvl;

class TstGlossary : public QObject
{
    Q_OBJECT
  private slots:
    void everySignatureIsDefined()
    {
        QSet<QString> classifier;
        for (Signature s : allSignatures())
            classifier << signatureName(s);
        const QStringList ids = failureSignatureIds();
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()), classifier);
        for (const QString& id : ids) {
            QVERIFY2(!glossaryTip(id).isEmpty(), qPrintable(id));
            // The legend's name and the glossary's title are the same words.
            QVERIFY2(glossaryTip(id).startsWith(signatureDisplayName(id) + QLatin1Char(':')),
                     qPrintable(glossaryTip(id)));
        }
    }

    void everyMetricColumnHasItsTooltip()
    {
        ResultRowsModel model;
        QStringList metricColumns;
        for (int c = 0; c < ResultRowsModel::ColumnCount; ++c) {
            const QString term = ResultRowsModel::glossaryTermOf(c);
            const QString tip = model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            QCOMPARE(tip, glossaryTip(term));
            if (!term.isEmpty()) {
                QVERIFY2(!tip.isEmpty(), qPrintable(term));
                metricColumns << model.headerData(c, Qt::Horizontal).toString();
            }
        }
        for (const char* metric : {"ECov", "ERR", "ΔNLL", "EAR", "Transition"})
            QVERIFY2(metricColumns.contains(QString::fromUtf8(metric)),
                     qPrintable(metricColumns.join(',')));
    }

    void everyTermIsUsedByTheApp()
    {
        // The app's texts are the catalogue's sources outside the glossary's own context.
        QFile ts(QStringLiteral(KVLENS_SOURCE_DIR "/translations/kvlens_ja.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(ts.readAll());
        QString appTexts;
        const QRegularExpression context(
            QStringLiteral("<context>\\s*<name>([^<]*)</name>(.*?)</context>"),
            QRegularExpression::DotMatchesEverythingOption);
        for (auto it = context.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            if (m.captured(1) != QLatin1String("kvl::Glossary"))
                appTexts += m.captured(2);
        }
        const QStringList signatures = failureSignatureIds();
        for (const GlossaryEntry& e : glossary()) {
            // Signatures are shown by their legend names.
            const QString shown =
                signatures.contains(e.term) ? signatureDisplayName(e.term) : e.term.toHtmlEscaped();
            QVERIFY2(appTexts.contains(shown, Qt::CaseInsensitive), qPrintable(e.term));
        }
    }

    void helpMenuShowsTheGlossary()
    {
        MainWindow window;
        QAction* glossaryAction = nullptr;
        for (QAction* a : window.menuBar()->findChildren<QAction*>())
            if (a->text() == QLatin1String("&Glossary"))
                glossaryAction = a;
        QVERIFY(glossaryAction);
        glossaryAction->trigger();
        auto* box = window.findChild<QWidget*>(QStringLiteral("Glossary"));
        QVERIFY(box);
        QVERIFY(box->isVisible());
    }
};

QTEST_MAIN(TstGlossary)
#include "tst_glossary.moc"
