// RatioCurvesView: a value against ratio per series with a reference line; CSV
// equal to a hand-written expectation, PNG export, title override.
#include "offscreentestmain.h"
#include "views/ratiocurvesview.h"

#include <QImage>
#include <QTemporaryDir>

#include <cmath>

using namespace kvl;

class TstRatioCurvesView : public QObject
{
    Q_OBJECT
  private:
    static RatioCurves sampleCurves()
    {
        RatioCurves d;
        d.valueLabel = QStringLiteral("Repair rate");
        d.reference = 0.25;
        d.referenceLabel = QStringLiteral("FullCache");
        d.curves = {{QStringLiteral("S · boost"), {0.5, 0.75}, {0.5, std::nan("")}, 0, false},
                    {QStringLiteral("S · sham"), {0.5}, {0.1}, 0, true}};
        return d;
    }

  private slots:
    void emptyUntilData()
    {
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        QVERIFY(!view.hasData());
        QCOMPARE(view.emptyHint(), QStringLiteral("hint"));
        view.setData({});
        QVERIFY(!view.hasData());
    }

    void csv()
    {
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(sampleCurves());
        QVERIFY(view.hasData());
        // The reference first at ratio 0; NaN as an empty field.
        QCOMPARE(view.csv(), QStringLiteral("series,ratio,value\n"
                                            "FullCache,0,0.25\n"
                                            "S · boost,0.5,0.5\n"
                                            "S · boost,0.75,\n"
                                            "S · sham,0.5,0.1\n"));
        view.clear();
        QVERIFY(!view.hasData());
    }

    void exportAndTitle()
    {
        RatioCurvesView view(QStringLiteral("Repair"), QStringLiteral("hint"));
        view.resize(600, 400);
        view.setData(sampleCurves());
        view.setTitle(QStringLiteral("Repair — run x"));
        QCOMPARE(view.title(), QStringLiteral("Repair — run x"));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("curves.png"));
        view.exportFigure(png, QSize(600, 400));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 600);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstRatioCurvesView)
#include "tst_ratiocurvesview.moc"
