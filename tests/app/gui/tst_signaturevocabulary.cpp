// One vocabulary of failure signatures across modules: the classifier's ids
// (core/diagnose), the store's filter and chain-break categories (core/store), and the
// names the taxonomy views and the rows panel show (views/signaturenames). A signature
// added to the classifier without a display name, or spelled differently, fails here.
#include "diagnose/signature.h"
#include "store/chainbreaks.h"
#include "views/signaturenames.h"

#include <QSet>
#include <QtTest>

using namespace kvl;

class TstSignatureVocabulary : public QObject
{
    Q_OBJECT
  private slots:
    void classifierIds_data()
    {
        QTest::addColumn<int>("signature");
        for (Signature s : allSignatures())
            QTest::newRow(qPrintable(signatureName(s))) << int(s);
    }
    // Each id the classifier writes reads back as the same signature (the store's SQL
    // filter binds signatureName, the drill-down parses with signatureFromName) and has a
    // display name of its own.
    void classifierIds()
    {
        QFETCH(int, signature);
        const Signature s = Signature(signature);
        const QString id = signatureName(s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(signatureFromName(id), std::optional<Signature>(s));
        const QString shown = signatureDisplayName(id);
        QVERIFY2(!shown.isEmpty() && shown != id, qPrintable(id));
    }

    void displayNamesAreDistinct()
    {
        QSet<QString> names;
        for (Signature s : allSignatures())
            names.insert(signatureDisplayName(signatureName(s)));
        QCOMPARE(qsizetype(names.size()), qsizetype(allSignatures().size()));
    }

    // Multihop chain-break categories (the second taxonomy) are named too, for chains of
    // up to 6 links.
    void chainBreakCategories()
    {
        QSet<QString> names;
        for (int links = 1; links <= 6; ++links)
            for (int step = 0; step <= links; ++step) {
                const QString id = chainBreakCategory(step, links);
                const QString shown = signatureDisplayName(id);
                QVERIFY2(!shown.isEmpty() && shown != id, qPrintable(id));
                names.insert(id);
            }
        QCOMPARE(names.size(), 7); // chain_start, chain_link_1..5, chain_value
    }
};

QTEST_GUILESS_MAIN(TstSignatureVocabulary)
#include "tst_signaturevocabulary.moc"
