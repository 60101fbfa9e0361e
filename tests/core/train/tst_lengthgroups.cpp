// assembleLengthGroups: a step's sequences split by length into batches that pad the
// fewest tokens, every sequence and every supervised target kept exactly once.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "train/trainbatch.h"

#include <QtTest>
#include <set>

using namespace kvl;

namespace {
// A sequence of `length` ids, all equal to `marker`, the second half supervised.
TrainSequence sequenceOf(int length, int marker)
{
    TrainSequence s;
    for (int i = 0; i < length; ++i)
        s.append(marker, i >= length / 2);
    return s;
}

int64_t paddedTokens(const std::vector<TrainBatch>& groups)
{
    int64_t n = 0;
    for (const TrainBatch& g : groups)
        n += g.ids.numel();
    return n;
}
} // namespace

class TestLengthGroups : public QObject
{
    Q_OBJECT

  private slots:
    void splitsWhereLengthsJump()
    {
        // Shuffled lengths of three clusters: three groups pad almost nothing.
        const std::vector<int> lengths{50, 10, 100, 12, 52, 11};
        std::vector<TrainSequence> sequences;
        for (size_t i = 0; i < lengths.size(); ++i)
            sequences.push_back(sequenceOf(lengths[i], int(i) + 1));
        const std::vector<TrainBatch> groups = assembleLengthGroups(sequences, 0, 3);
        QCOMPARE(int(groups.size()), 3);
        QCOMPARE(groups[0].ids.sizes().vec(), (std::vector<int64_t>{3, 12}));
        QCOMPARE(groups[1].ids.sizes().vec(), (std::vector<int64_t>{2, 52}));
        QCOMPARE(groups[2].ids.sizes().vec(), (std::vector<int64_t>{1, 100}));
        QCOMPARE(paddedTokens(groups), 3 * 12 + 2 * 52 + 100);

        // Every sequence once (its marker id), every supervised target once.
        std::multiset<int64_t> markers;
        int64_t rows = 0, tokens = 0;
        for (const TrainBatch& g : groups) {
            for (int64_t b = 0; b < g.ids.size(0); ++b)
                markers.insert(g.ids[b][0].item<int64_t>());
            rows += g.rows.numel();
            tokens += g.tokens;
        }
        QCOMPARE(markers, (std::multiset<int64_t>{1, 2, 3, 4, 5, 6}));
        int64_t expectedRows = 0, expectedTokens = 0;
        for (int length : lengths) {
            expectedRows += length - length / 2; // positions >= length/2, never position 0
            expectedTokens += length;
        }
        QCOMPARE(rows, expectedRows);
        QCOMPARE(tokens, expectedTokens);
    }

    void oneGroupIsOneBatch()
    {
        std::vector<TrainSequence> sequences{sequenceOf(7, 1), sequenceOf(30, 2), sequenceOf(9, 3)};
        const std::vector<TrainBatch> groups = assembleLengthGroups(sequences, 0, 1);
        QCOMPARE(int(groups.size()), 1);
        QCOMPARE(groups[0].ids.sizes().vec(), (std::vector<int64_t>{3, 30}));
        QCOMPARE(groups[0].rows.numel(), assembleBatch(sequences, 0).rows.numel());
    }

    void neverMoreGroupsThanSequences()
    {
        std::vector<TrainSequence> sequences{sequenceOf(5, 1), sequenceOf(40, 2)};
        const std::vector<TrainBatch> groups = assembleLengthGroups(sequences, 0, 4);
        QCOMPARE(int(groups.size()), 2);
        QCOMPARE(paddedTokens(groups), 45);
        // Equal lengths need no split: fewest groups among the cheapest.
        const std::vector<TrainBatch> same =
            assembleLengthGroups({sequenceOf(8, 1), sequenceOf(8, 2), sequenceOf(8, 3)}, 0, 4);
        QCOMPARE(int(same.size()), 1);
    }
};

QTEST_GUILESS_MAIN(TestLengthGroups)
#include "tst_lengthgroups.moc"
