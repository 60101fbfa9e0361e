#pragma once

#include "store/runrecords.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace kvl {

// What a stored sample says, hashed field by field (SHA-256 of the UTF-8 text), so
// that two runs can tell the same sample under another id from another sample under
// the same id: ids are per run ('retrieval-1-0' names whatever seed 1 drew at the
// run's lengths). The context and question texts live in the sample's meta (written
// by the runner); an older run file may lack them: that field's hash is then empty.
struct SampleContent
{
    QString key;
    QString suite;
    QByteArray context;  // empty: the run did not store the text
    QByteArray question; // empty: the run did not store the text
    QByteArray answer;   // the gold answer (always stored)
    int contextLen = 0;  // tokens, for the reason of a mismatch only
};

SampleContent sampleContent(const SampleInfo& sample);

struct SamplePair
{
    QString keyA;
    QString keyB;
};

// One id naming different content in the two runs.
struct SampleMismatch
{
    QString key;
    QString
        why; // "answer differs ('Zoe Pike' vs 'Zoe Hart'); context differs (1803 vs 270 tokens)"
};

// Two runs' samples matched by content. Every sample lands in exactly one of
// matched, mismatched, onlyA, onlyB. Pairs are made by the content hash whatever the
// ids (the same sample under another id is paired); an id both runs hold for
// different content is a mismatch and never paired.
struct SampleMatching
{
    std::vector<SamplePair> matched; // by A's key
    std::vector<SampleMismatch> mismatched;
    QStringList onlyA;
    QStringList onlyB;
    // What the content hash covered ("suite", "context", "question", "answer"), and the
    // fields left out because a run does not store them for every sample.
    QStringList comparedFields;
    QStringList uncomparedFields; // e.g. "question (not stored in B)"

    std::optional<QString> keyInB(const QString& keyA) const;
    std::optional<QString> keyInA(const QString& keyB) const;
    // "8 matched by content (suite, context, question, answer) · 2 mismatched · 0 only in A · 1
    // only in B"
    QString summary(const QString& nameA = QStringLiteral("A"),
                    const QString& nameB = QStringLiteral("B")) const;
};

SampleMatching matchSamples(const std::vector<SampleInfo>& a, const std::vector<SampleInfo>& b);

} // namespace kvl
