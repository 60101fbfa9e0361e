// float16 / bfloat16 <-> float32 on values worked out by hand from the IEEE layouts
// (tst_safetensorsreference adds every bit pattern against numpy).
#include "checkpoint/halfconvert.h"
#include "common/error.h"

#include <QtTest>
#include <bit>
#include <cmath>
#include <limits>

using namespace kvl;

class TestHalfConvert : public QObject
{
    Q_OBJECT

  private slots:
    void halfToFloatByHand_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("value");
        QTest::newRow("one") << 0x3c00 << 1.0f;
        QTest::newRow("minus two") << 0xc000 << -2.0f;
        QTest::newRow("largest") << 0x7bff << 65504.0f;
        QTest::newRow("smallest subnormal") << 0x0001 << std::ldexp(1.0f, -24);
        QTest::newRow("largest subnormal") << 0x03ff << std::ldexp(1023.0f, -24);
        QTest::newRow("smallest normal") << 0x0400 << std::ldexp(1.0f, -14);
        QTest::newRow("one third") << 0x3555 << 0.333251953125f;
        QTest::newRow("infinity") << 0x7c00 << std::numeric_limits<float>::infinity();
        QTest::newRow("minus infinity") << 0xfc00 << -std::numeric_limits<float>::infinity();
    }
    void halfToFloatByHand()
    {
        QFETCH(int, bits);
        QFETCH(float, value);
        QCOMPARE(halfToFloat(uint16_t(bits)), value);
        QCOMPARE(floatToHalf(value), uint16_t(bits));
    }

    void signedZeroAndNan()
    {
        QVERIFY(std::signbit(halfToFloat(0x8000)));
        QCOMPARE(halfToFloat(0x8000), 0.0f);
        QCOMPARE(floatToHalf(-0.0f), uint16_t(0x8000));
        QVERIFY(std::isnan(halfToFloat(0x7e00)));
        QVERIFY(std::isnan(halfToFloat(0x7c01))); // signalling payload stays a NaN
        QVERIFY(std::isnan(bf16ToFloat(0x7fc0)));
        const float nan = std::numeric_limits<float>::quiet_NaN();
        QVERIFY(std::isnan(halfToFloat(floatToHalf(nan))));
        QVERIFY(std::isnan(bf16ToFloat(floatToBf16(nan))));
        // A NaN whose payload sits only in the low bits must not become infinity.
        const float lowPayload = std::bit_cast<float>(0x7f800001u);
        QVERIFY(std::isnan(halfToFloat(floatToHalf(lowPayload))));
        QVERIFY(std::isnan(bf16ToFloat(floatToBf16(lowPayload))));
    }

    void halfRoundsToNearestEven_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        // The half ulp at 1 is 2^-10: 1 + 2^-11 is a tie -> even (1.0).
        QTest::newRow("tie down to even") << 1.0f + std::ldexp(1.0f, -11) << 0x3c00;
        QTest::newRow("tie up to even") << 1.0f + 3 * std::ldexp(1.0f, -11) << 0x3c02;
        QTest::newRow("above tie")
            << 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20) << 0x3c01;
        QTest::newRow("65519 stays finite") << 65519.0f << 0x7bff;
        QTest::newRow("65520 overflows") << 65520.0f << 0x7c00;
        QTest::newRow("huge") << 1e30f << 0x7c00;
        QTest::newRow("tiny negative") << -1e-30f << 0x8000;
        QTest::newRow("half of smallest subnormal ties to zero") << std::ldexp(1.0f, -25) << 0x0000;
        QTest::newRow("1.5 subnormal steps ties to 2") << 3 * std::ldexp(1.0f, -25) << 0x0002;
        QTest::newRow("subnormal rounds up into normal") << std::ldexp(2047.0f, -25) << 0x0400;
    }
    void halfRoundsToNearestEven()
    {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(floatToHalf(value), uint16_t(bits));
    }

    void bf16ByHand_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        QTest::newRow("one") << 1.0f << 0x3f80;
        QTest::newRow("minus three") << -3.0f << 0xc040;
        QTest::newRow("pi-ish") << 3.140625f << 0x4049;
        QTest::newRow("infinity") << std::numeric_limits<float>::infinity() << 0x7f80;
        // The bfloat16 ulp at 1 is 2^-7: ties go to even.
        QTest::newRow("tie down") << 1.0f + std::ldexp(1.0f, -8) << 0x3f80;
        QTest::newRow("tie up") << 1.0f + 3 * std::ldexp(1.0f, -8) << 0x3f82;
        QTest::newRow("float max overflows") << std::numeric_limits<float>::max() << 0x7f80;
    }
    void bf16ByHand()
    {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(floatToBf16(value), uint16_t(bits));
    }

    void everyPatternRoundTrips()
    {
        for (uint32_t b = 0; b < 65536; ++b) {
            const uint16_t bits = uint16_t(b);
            const bool halfNan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
            if (!halfNan)
                QVERIFY2(floatToHalf(halfToFloat(bits)) == bits,
                         qPrintable(QString::number(b, 16)));
            const bool bfNan = (bits & 0x7f80) == 0x7f80 && (bits & 0x7f);
            if (!bfNan)
                QVERIFY2(floatToBf16(bf16ToFloat(bits)) == bits,
                         qPrintable(QString::number(b, 16)));
        }
    }

    void tensorToFloatRejectsIntegers()
    {
        const int64_t ints[] = {1, 2};
        TensorView view{
            QStringLiteral("ids"), DType::I64, {2}, ints, 16, QStringLiteral("/m/w.safetensors")};
        try {
            tensorToFloat(view);
            QFAIL("no kvl::Error");
        } catch (const Error& e) {
            QVERIFY(e.message().contains(QStringLiteral("/m/w.safetensors")));
            QVERIFY(e.message().contains(QStringLiteral("'ids'")));
            QVERIFY(e.message().contains(QStringLiteral("I64")));
        }
        const uint16_t halves[] = {0x3c00, 0xc000};
        TensorView h{QStringLiteral("h"), DType::F16, {2}, halves, 4, QString()};
        QCOMPARE(tensorToFloat(h), (std::vector<float>{1.0f, -2.0f}));
        const double doubles[] = {0.5, -1e300};
        TensorView d{QStringLiteral("d"), DType::F64, {2}, doubles, 16, QString()};
        QCOMPARE(tensorToFloat(d),
                 (std::vector<float>{0.5f, -std::numeric_limits<float>::infinity()}));
    }
};

QTEST_GUILESS_MAIN(TestHalfConvert)
#include "tst_halfconvert.moc"
