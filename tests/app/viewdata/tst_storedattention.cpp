// Stored attention pooled by the run (store.attention_positions) is drawn on the sample's
// token positions: the views get one value per position, each column's mass is kept, the
// figure's note names the pooling, and a blob that is no pooling of the sample is refused.
#include "guirunfixture.h"
#include "storedattention.h"
#include "storerunloader.h"

#include "common/error.h"
#include "diagnose/attentionpooling.h"
#include "store/runreader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

using namespace kvl;

namespace {

// Sample s1 of the app fixture with a 10-token context whose SnapKV@0.5 attention is
// stored pooled to `columns` columns (FullCache's per position).
SampleRecord pooledSample(int columns)
{
    SampleRecord rec = guitest::sample(1);
    rec.sample.contextLen = 10;
    rec.sample.meta = QJsonObject();
    rec.results[1].mask.reset();
    AttentionSummary perPosition(2, 2, 10);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h)
            for (int t = 0; t < 10; ++t)
                perPosition.at(l, h, t) = float(1 + t + 10 * h + 20 * l) / 1000.0f;
    const int width = attentionColumnWidth(10, columns);
    rec.results[1].attention = width > 1 ? poolAttention(perPosition, width) : perPosition;
    if (columns == 7) { // not a pooling of 10 positions: ceil(10/7) = 2 gives 5 columns
        AttentionSummary odd(2, 2, 7);
        rec.results[1].attention = odd;
    }
    AttentionSummary full(2, 2, 10);
    std::fill(full.weights.begin(), full.weights.end(), 0.1f);
    rec.results[0].attention = full;
    return rec;
}

qint64 configIdOf(RunReader& reader, const QString& compressor, double ratio)
{
    for (const ConfigRecord& c : reader.configs())
        if (c.compressor == compressor && std::abs(c.ratio - ratio) < 1e-9)
            return c.id;
    return 0;
}

} // namespace

class TstStoredAttention : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;

    QString writeRun(int columns)
    {
        const QString path = m_dir.filePath(QStringLiteral("pooled%1.kvl").arg(columns));
        RunInfo info;
        info.modelName = QStringLiteral("tiny");
        test::writeRunOf(
            path, info, {1}, [columns](int) { return pooledSample(columns); },
            QStringLiteral("finished"));
        return path;
    }

  private slots:
    void pooledBlobIsSpreadOverPositions()
    {
        const QString path = writeRun(4); // width ceil(10/4) = 3: columns 0-2, 3-5, 6-8, 9
        RunReader reader(path);
        const qint64 sampleId = reader.samples().at(0).id;
        const qint64 snap = configIdOf(reader, QStringLiteral("SnapKV"), 0.5);
        QVERIFY(snap != 0);
        const auto stored = reader.attention(sampleId, snap);
        QVERIFY(stored);
        QCOMPARE(stored->contextLen, 4);

        int width = 0;
        const auto shown = storedAttentionOnPositions(reader, sampleId, snap, 10, &width);
        QVERIFY(shown);
        QCOMPARE(width, 3);
        QCOMPARE(shown->contextLen, 10);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h)
                for (int c = 0; c < 4; ++c) {
                    const int begin = 3 * c, end = std::min(10, begin + 3);
                    float mass = 0.0f;
                    for (int t = begin; t < end; ++t) {
                        QCOMPARE(shown->at(l, h, t), shown->at(l, h, begin)); // one value a column
                        mass += shown->at(l, h, t);
                    }
                    QVERIFY(std::abs(mass - stored->at(l, h, c)) < 1e-6f);
                }
        QVERIFY(pooledAttentionNote(width).contains(QStringLiteral("3 positions per column")));
        QVERIFY(pooledAttentionNote(1).isEmpty());

        // What the Question attention view gets: one column per token position, and the
        // figure's provenance says the attention was pooled.
        const RunViewData data =
            loadRunViewData(RunRequest{path, QStringLiteral("SnapKV"), 0.5, QStringLiteral("s1")});
        QCOMPARE(data.heatmap.cols, 10);
        QCOMPARE(data.referenceHeatmap.cols, 10);
        QVERIFY(data.heatmapProvenance.note.contains(QStringLiteral("pooled")));
        QVERIFY(!data.referenceProvenance.note.contains(QStringLiteral("pooled")));
    }

    void perPositionBlobIsUnchanged()
    {
        const QString path = writeRun(0);
        RunReader reader(path);
        const qint64 sampleId = reader.samples().at(0).id;
        const qint64 snap = configIdOf(reader, QStringLiteral("SnapKV"), 0.5);
        int width = 0;
        const auto shown = storedAttentionOnPositions(reader, sampleId, snap, 10, &width);
        QVERIFY(shown);
        QCOMPARE(width, 1);
        QCOMPARE(shown->weights, reader.attention(sampleId, snap)->weights);
    }

    void blobThatIsNoPoolingIsRefused()
    {
        const QString path = writeRun(7);
        RunReader reader(path);
        const qint64 sampleId = reader.samples().at(0).id;
        const qint64 snap = configIdOf(reader, QStringLiteral("SnapKV"), 0.5);
        QVERIFY_THROWS_EXCEPTION(Error, storedAttentionOnPositions(reader, sampleId, snap, 10));
    }
};

QTEST_GUILESS_MAIN(TstStoredAttention)
#include "tst_storedattention.moc"
