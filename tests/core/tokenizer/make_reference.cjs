#!/usr/bin/env node
// Writes tests/data/tokenizer/reference_ids.json: the ids that transformers.js
// (@lenml/tokenizers 3.7.2, an independent JavaScript implementation) gives for a
// set of test strings with the real Llama 2, Llama 3 and Qwen3 tokenizer.json files,
// and with tests/data/tokenizer/trained_small.json (made by our BPE trainer).
// tst_realtokenizers compares kvl::HfTokenizer against these ids.
//
//   node tests/core/tokenizer/make_reference.cjs <build>/npm/node_modules
//
// (packaging/bootstrap.sh test installs the npm packages into <build>/npm.)
const fs = require("fs");
const path = require("path");

const modules = process.argv[2] || path.join(__dirname, "../../../build/npm/node_modules");
const out = path.join(__dirname, "../../data/tokenizer/reference_ids.json");

// Avoid U+FEFF and U+0085: JavaScript's \s and Oniguruma's disagree on them.
const strings = [
  "",
  " ",
  "\n",
  "Hello, world!",
  "The quick brown fox jumps over the lazy dog.",
  "1 12 123 1234 12345 123456 1234567 1234567890 3.14159 -42 1,000,000 0.5e-10",
  "3141592653589793238462643383279502884197169399375105820974944592",
  "I'm sure you'll see they've done it, isn't it? WE'LL SEE. She'd've 'S 'T 'Re",
  "don\u2019t (curly) vs don't; 'quoted' ''double''",
  "a  b   c    d\t\te\n\nf \n g   \n\n\n  h  ",
  "   leading and trailing   ",
  "line1\r\nline2\rline3\n\tindented\n\n\n",
  "Tab\tseparated\tvalues\n1\t2\t3\n",
  "I \u2764\ufe0f \ud83e\udd99 and \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66 family \ud83c\udf89\ud83c\udf89",
  "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002\u4e2d\u6587\u6587\u672c\uff0c\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8",
  "caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00c5ngstr\u00f6m",
  "cafe\u0301 nai\u0308ve re\u0301sume\u0301 A\u030angstro\u0308m",
  "\u1100\u1161\u11a8 \u1112\u1161\u11ab",
  "Z\u0324\u0354\u0367\u0311\u0313a\u0308\u0356\u032d\u0308\u0307l\u036e\u0312\u036bo\u0328\u0317\u0355\u0350",
  "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440! \u0393\u03b5\u03b9\u03ac \u03c3\u03bf\u03c5 \u03ba\u03cc\u03c3\u03bc\u03b5. \u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd",
  "control \u0007 chars \u001b[0m and rare \ud835\udd18\ud835\udd2b\ud835\udd26 \ua66e",
  "def f(x):\n    return x**2 + 1  # comment\n\nfor i in range(10):\n\tprint(f'{i}: {f(i)}')\n",
  "{\"key\": [1, 2, 3], \"nested\": {\"a\": null, \"b\": \"x y\"}}",
  "## Title\n\n- item 1\n- item 2\n\n**bold** _it_ `code` <b>html</b>",
  "Visit https://example.com/path?q=1&r=2 or mail me@example.org.",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa !!!!!!!!????..... ------",
  "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n",
  "<think>\nreasoning\n</think>\n\nanswer",
  "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>",
  "<s> hello </s> world<s>x",
  "  <|im_end|>  x<|endoftext|>",
  "The key K-4471 maps to value 93817. Record: key=K-2210, value=55012.",
];

// Plus seeded random mixtures of the pieces the pre-tokenizer regexes care about.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pieces = [
  "a", "Z", "word", " the", "Hello", "x", " ", " ", "  ", "   ", "\n", "\n\n", "\t", "\r\n", " \n",
  "0", "7", "42", "1234567", "3.5", "!", "?", ".", ",", ";", ":", "'", "\"", "-", "_", "(", ")",
  "[", "]", "{", "}", "<", ">", "/", "\\", "@", "#", "$", "%", "^", "&", "*", "+", "=", "|", "~", "`",
  "'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL", "n't",
  "\u00e9", "\u00fc", "\u00f1", "\u00c5", "e\u0301", "o\u0308", "c\u0327", "\u0301",
  "\u65e5\u672c", "\u4e2d\u6587", "\ud55c\uad6d\uc5b4", "\u3072\u3089\u304c\u306a", "\u30ab\u30bf",
  "\ud83d\ude00", "\ud83e\udd99", "\ud83d\udc4d\ud83c\udffd", "\u2764\ufe0f", "\u200d",
  "\u00a0", "\u2003", "\u3000", "\u0645\u0631\u062d\u0628\u0627", "\u0928\u092e\u0938\u094d\u0924\u0947",
  "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<s>", "</s>", "<|begin_of_text|>", "<think>",
  "<|eot_id|>", "\u2581", "<0x0A>",
];
const rand = mulberry32(20261129);
for (let i = 0; i < 100; ++i) {
  let s = "";
  const n = 3 + Math.floor(rand() * 18);
  for (let k = 0; k < n; ++k) s += pieces[Math.floor(rand() * pieces.length)];
  strings.push(s);
}

const names = ["llama2", "llama3", "qwen3"];
const result = { generator: "transformers.js via @lenml/tokenizers 3.7.2", strings, tokenizers: {} };
for (const name of names) {
  const pkg = require(path.join(modules, "@lenml/tokenizer-" + name));
  const tok = pkg.fromPreTrained();
  const plain = [];
  const special = [];
  const decoded = [];
  for (const s of strings) {
    const ids = tok.encode(s, { add_special_tokens: false });
    plain.push(ids);
    special.push(tok.encode(s, { add_special_tokens: true }));
    decoded.push(ids.length === 0 ? "" : tok.decode(ids, { skip_special_tokens: false, clean_up_tokenization_spaces: false }));
  }
  result.tokenizers[name] = { plain, special, decoded };
}
// The small tokenizer.json written by `kvlens-cli tokenizer-train` (see
// tests/data/tokenizer/README.md): transformers.js must read it as we do.
{
  const { TokenizerLoader } = require(path.join(modules, "@lenml/tokenizers"));
  const json = JSON.parse(fs.readFileSync(path.join(__dirname, "../../data/tokenizer/trained_small.json")));
  const tok = TokenizerLoader.fromPreTrained({ tokenizerJSON: json, tokenizerConfig: {} });
  result.trained = { special: strings.map((s) => tok.encode(s, { add_special_tokens: true })) };
}

// One id list per line keeps the fixture small and diffable.
const lines = JSON.stringify(result, (k, v) =>
  Array.isArray(v) && v.every((x) => typeof x === "number") ? "@@" + JSON.stringify(v) + "@@" : v, 1);
fs.writeFileSync(out, lines.replace(/"@@(\[[^"]*\])@@"/g, "$1") + "\n");
console.log("wrote", out);
