#pragma once

#include <QStringList>

namespace kvl {

class Rng;

// The closed world every generator draws from: a few hundred distinct words, so a
// byte-level BPE of ~2k tokens covers it compactly and a small model trained on the
// suites can learn their formats. The lists never share a word, so a name is never
// also a city or a variable.
namespace lexicon {

const QStringList& firstNames();
const QStringList& lastNames();
const QStringList& cities();
const QStringList& colours();
const QStringList& animals();
const QStringList& jobs();
const QStringList& variables(); // multi-hop variable names (NATO alphabet)
const QStringList& secrets();   // secret words of the instruction suite
const QStringList& prefixes();  // answer prefixes of the format rule ("Sure" -> "Sure:")

// A random filler sentence (no person names, no records), 5-12 words.
QString fillerSentence(Rng& rng);
// Short filler sentences (1-3 words) for topping a context up to its length.
const QStringList& shortSentences();
// Every template word the filler uses, for corpus coverage.
QStringList fillerWords();

} // namespace lexicon
} // namespace kvl
