#pragma once

#include <QApplication>
#include <QtTest>

// Forces the offscreen platform (deterministic rendering, no display needed)
// before the QApplication exists, whatever the environment says.
#define KVL_OFFSCREEN_TEST_MAIN(TestClass)                                                         \
    int main(int argc, char** argv)                                                                \
    {                                                                                              \
        qputenv("QT_QPA_PLATFORM", "offscreen");                                                   \
        QApplication app(argc, argv);                                                              \
        TestClass test;                                                                            \
        return QTest::qExec(&test, argc, argv);                                                    \
    }
