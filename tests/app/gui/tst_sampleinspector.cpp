// Sample inspector: the question and system turn it shows, and the buttons that
// scroll a long context to each evidence span in turn.
#include "offscreentestmain.h"
#include "sampleinspector.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QToolButton>

using namespace kvl;

namespace {

// 3000 tokens "w0 w1 ...", with evidence spans starting at 500 and 2000 (listed out of
// order) and an instruction span near the top.
SampleDetail longSample()
{
    SampleDetail d;
    d.sample.key = QStringLiteral("long-1");
    d.sample.suite = QStringLiteral("niah");
    d.sample.contextLen = 3000;
    d.sample.gold = QStringLiteral("w502");
    d.sample.spans = QJsonArray{QJsonObject{{"kind", "evidence"}, {"start", 2000}, {"end", 2004}},
                                QJsonObject{{"kind", "instruction"}, {"start", 2}, {"end", 6}},
                                QJsonObject{{"kind", "evidence"}, {"start", 500}, {"end", 503}}};
    for (int t = 0; t < 3000; ++t) {
        const QString word = QStringLiteral("w%1").arg(t);
        d.tokenOffsets.push_back({int(d.context.size()), int(d.context.size() + word.size())});
        d.context += word + QLatin1Char(' ');
    }
    d.question = QStringLiteral("What is the special magic number?");
    d.compressor = QStringLiteral("SnapKV");
    d.ratio = 0.5;
    d.found = true;
    d.result.answer = QStringLiteral("w502");
    d.result.correct = true;
    return d;
}

// Where token `t` ("w<t>") is drawn in the context's viewport.
QRect tokenRect(QTextBrowser* view, int t)
{
    QTextCursor found = view->document()->find(QStringLiteral("w%1 ").arg(t));
    if (found.isNull())
        return {};
    QTextCursor at(view->document());
    at.setPosition(found.selectionStart());
    return view->cursorRect(at);
}

} // namespace

class TstSampleInspector : public QObject
{
    Q_OBJECT
  private slots:
    void showsTheQuestion()
    {
        SampleInspector inspector;
        inspector.show();
        inspector.setDetail(longSample());
        QCOMPARE(inspector.questionText(),
                 QStringLiteral("Question: What is the special magic number?"));
        auto* label = inspector.findChild<QLabel*>(QStringLiteral("SampleQuestion"));
        QVERIFY(label && label->isVisible());
        QVERIFY(!label->text().contains(QLatin1String("System")));
    }

    void showsTheSystemTurnWhenStored()
    {
        SampleInspector inspector;
        inspector.show();
        SampleDetail d = longSample();
        d.system = QStringLiteral("You are a careful assistant. ") + QString(400, QLatin1Char('x'));
        inspector.setDetail(d);
        auto* label = inspector.findChild<QLabel*>(QStringLiteral("SampleQuestion"));
        QVERIFY(label->text().startsWith(QLatin1String("<b>System:</b> You are a careful")));
        // A long system turn is cut on screen; all of it is in the tooltip and the text.
        QVERIFY(label->text().contains(QStringLiteral(" …")));
        QVERIFY(inspector.questionText().contains(d.system));
        QVERIFY(inspector.questionText().contains(QLatin1String("Question: What is")));
    }

    void questionLabelNotRepeated()
    {
        // Suites write "Question: ... Answer:" into the text; the line says it once.
        SampleInspector inspector;
        SampleDetail d = longSample();
        d.question = QStringLiteral("\nQuestion: What is the code? Answer:");
        inspector.setDetail(d);
        auto* label = inspector.findChild<QLabel*>(QStringLiteral("SampleQuestion"));
        QCOMPARE(label->text(), QStringLiteral("<b>Question:</b> What is the code? Answer:"));
    }

    void noQuestionNoLine()
    {
        SampleInspector inspector;
        inspector.show();
        SampleDetail d = longSample();
        d.question.clear();
        inspector.setDetail(d);
        QVERIFY(inspector.questionText().isEmpty());
        QVERIFY(!inspector.findChild<QLabel*>(QStringLiteral("SampleQuestion"))->isVisible());
    }

    void scrollsToEachEvidenceSpan()
    {
        SampleInspector inspector;
        inspector.resize(900, 700);
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        inspector.setDetail(longSample());
        QTextBrowser* view = inspector.contextView();
        QScrollBar* bar = view->verticalScrollBar();
        QCOMPARE(bar->value(), 0);
        QCOMPARE(inspector.evidenceCount(), 2);
        QCOMPARE(inspector.currentEvidence(), -1);
        const QRect viewport = view->viewport()->rect();
        // Token 500 starts far below the first screen before the click...
        QVERIFY(tokenRect(view, 500).top() > viewport.bottom());

        auto* toEvidence = inspector.findChild<QToolButton*>(QStringLiteral("ScrollToEvidence"));
        QVERIFY(toEvidence && toEvidence->isEnabled());
        QTest::mouseClick(toEvidence, Qt::LeftButton);
        // ...and is on screen after it: the first span in the context, not in the list.
        QCOMPARE(inspector.currentEvidence(), 0);
        QVERIFY(bar->value() > 0);
        QVERIFY2(viewport.contains(tokenRect(view, 500).topLeft()),
                 qPrintable(QStringLiteral("%1").arg(tokenRect(view, 500).top())));
        const int first = bar->value();

        inspector.nextEvidence();
        QCOMPARE(inspector.currentEvidence(), 1);
        QVERIFY(bar->value() > first);
        QVERIFY(viewport.contains(tokenRect(view, 2000).topLeft()));
        inspector.nextEvidence(); // stays on the last span
        QCOMPARE(inspector.currentEvidence(), 1);

        inspector.previousEvidence();
        QCOMPARE(inspector.currentEvidence(), 0);
        QCOMPARE(bar->value(), first);
    }

    void noEvidenceNoScroll()
    {
        SampleInspector inspector;
        inspector.show();
        SampleDetail d = longSample();
        d.sample.spans = QJsonArray{};
        inspector.setDetail(d);
        QCOMPARE(inspector.evidenceCount(), 0);
        QVERIFY(!inspector.scrollToEvidence(0));
        QVERIFY(
            !inspector.findChild<QToolButton*>(QStringLiteral("ScrollToEvidence"))->isEnabled());
        QCOMPARE(inspector.contextView()->verticalScrollBar()->value(), 0);
    }

    void tokenPositionsWithoutTextScrollToo()
    {
        // A run that stored no context text: positions stand in for the tokens.
        SampleInspector inspector;
        inspector.resize(500, 500);
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        SampleDetail d = longSample();
        d.context.clear();
        d.tokenOffsets.clear();
        inspector.setDetail(d);
        QVERIFY(inspector.scrollToEvidence(1));
        QVERIFY(inspector.contextView()->verticalScrollBar()->value() > 0);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstSampleInspector)
#include "tst_sampleinspector.moc"
