// The Japanese catalogue is compiled at build time and translates the UI strings.
#include <QCoreApplication>
#include <QTranslator>
#include <QtTest>

class TstTranslations : public QObject
{
    Q_OBJECT
  private slots:
    void japaneseCatalogue_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::newRow("menu") << "kvl::FileMenu"
                              << "&File";
        QTest::newRow("view title") << "kvl::AccuracyRatioView"
                                    << "Accuracy vs compression ratio";
        // Drawn by the shared base of the ratio views: its context is the base's.
        QTest::newRow("shared axis") << "kvl::RatioPlotView"
                                     << "Compression ratio (share of context KV entries removed)";
        QTest::newRow("chain-break category") << "kvl::SignatureNames"
                                              << "Right chain, wrong number";
        QTest::newRow("dialog") << "kvl::NewRunDialog"
                                << "New run";
        QTest::newRow("failure sets") << "kvl::FailureSetsView"
                                      << "Failure sets (UpSet)";
        QTest::newRow("interval footnote") << "kvl::RatioPlotView"
                                           << "bars: 95% intervals";
        QTest::newRow("run comparison") << "kvl::RunComparePanel"
                                        << "Accuracy of two runs over their matched samples";
        QTest::newRow("delta table") << "kvl::AccuracyDeltaModel"
                                     << "Correct only in B";
        QTest::newRow("navigator group") << "kvl::MainWindow"
                                         << "Failures";
        QTest::newRow("selection line") << "kvl::MainWindow"
                                        << "sample: all (mean)";
        QTest::newRow("inspector") << "kvl::SampleInspector"
                                   << "Scroll to evidence";
        QTest::newRow("decoding group") << "kvl::MainWindow"
                                        << "Decoding";
        // The view-data helpers' tr() (namespace level, as lupdate files it).
        QTest::newRow("decoding curve") << "kvl"
                                        << "Evidence kept (ERR), mean over rows";
        QTest::newRow("offloading curve") << "kvl"
                                          << "intervals: Wilson score for 0/1 values, else mean "
                                             "± 1.96 standard errors";
        QTest::newRow("press range") << "QObject"
                                     << "%1: %2 is outside [%3, %4]";
        QTest::newRow("press choice") << "QObject"
                                      << "%1: '%2' is not one of %3";
        QTest::newRow("press range tip") << "kvl::PressParametersEditor"
                                         << "Range: %1 to %2";
        QTest::newRow("head grid") << "kvl::HeadGridView"
                                   << "Question attention, every layer × kv-head";
        QTest::newRow("missing rows") << "kvl::MissingRowsText"
                                      << "%n row(s) failed under %1";
        QTest::newRow("unsupported cells") << "kvl::MissingRowsText"
                                           << "%n cell(s) not run: %1 is unsupported";
        QTest::newRow("imported run") << "kvl::StoreRunLoader"
                                      << "Imported from %1: %2.";
        QTest::newRow("rows hint") << "kvl::RowsPanel"
                                   << "Click a taxonomy or chain-break bar, a failure-overlap "
                                      "cell or a failure-set (UpSet) column to list its rows.";
    }
    void japaneseCatalogue()
    {
        QFETCH(QString, context);
        QFETCH(QString, source);
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(KVLENS_QM_DIR "/kvlens_ja.qm")));
        const QString translated = translator.translate(qPrintable(context), qPrintable(source));
        QVERIFY2(!translated.isEmpty(), qPrintable(source));
        QVERIFY(translated != source);
        // Japanese text: at least one character from the kana or CJK blocks.
        bool japanese = false;
        for (QChar c : translated)
            japanese |= (c.unicode() >= 0x3040 && c.unicode() <= 0x30FF) ||
                        (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF);
        QVERIFY2(japanese, qPrintable(translated));
    }
};

QTEST_GUILESS_MAIN(TstTranslations)
#include "tst_translations.moc"
