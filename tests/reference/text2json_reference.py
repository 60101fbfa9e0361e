#!/usr/bin/python3
"""Independent reference for the Text2JSON score (tst_text2jsonreference).

Writes OUT_DIR/cases.jsonl: seeded, constructed (gold, prediction) pairs, each with the
score the study's published evaluator gives (Text2jsonEvaluator in the study's
opencompass fork, transcribed below in our own words, parsing with Python's own
json.loads), or, where that evaluator raises, the score KVLens documents for the case
(core/tasks/SCHEMA.md), or "error" where KVLens refuses the gold. The C++ scorer must
agree exactly on every line.

usage: text2json_reference.py OUT_DIR [--seed S] [--n N]
"""
import argparse
import json
import random
import sys

CURLY = "\u2019"


class SkippedSample(Exception):
    """The evaluator drops a sample whose gold repeats a name from its mean."""


class GoldRefused(Exception):
    """KVLens refuses the gold (SCHEMA.md): it has no score to compare."""


def _straight(text):
    return text.replace(CURLY, "'")


def _brackets_ok(prediction):
    # Exactly one '[' and one ']', the '[' first.
    if prediction.count("[") != 1 or prediction.count("]") != 1:
        return False
    return prediction.index("[") < prediction.index("]")


def _fragment(prediction):
    return prediction[prediction.index("["):prediction.index("]") + 1]


def published_score(prediction, gold_text):
    """The per-sample score of the published evaluator. Raises where it raises (the
    Python operations below are the ones it performs on the same Python types), and
    SkippedSample where it leaves the sample out of its mean."""
    gold = json.loads(gold_text)
    assert type(gold) == list
    fields_of = {}
    for obj in gold:
        assert len(obj.keys()) == 3
        name = obj["name"].replace(CURLY, "'")
        if name in fields_of:
            raise SkippedSample()
        fields_of[name] = {k: v for k, v in obj.items() if k != "name"}
    denominator = len(fields_of)
    if not _brackets_ok(prediction):
        return 0.0
    try:
        items = json.loads(_fragment(prediction))
    except Exception:
        return 0.0
    if type(items) != list:
        return 0.0
    total = 0
    for item in items:
        # For a str item `in` is a substring test and item["name"] a TypeError; for a
        # number, bool or None `in` itself raises: as in the evaluator.
        if "name" not in item or type(item["name"]) != str:
            denominator += 1
            continue
        name = item["name"].replace(CURLY, "'")
        if name not in fields_of:
            denominator += 1
            continue
        s = 1
        for key, want in fields_of[name].items():
            if key not in item or item[key] is None:
                s -= 0.5
                continue
            assert type(want) == str
            got = item[key]
            if type(got) == int:
                got = str(got)
            if want.replace(CURLY, "'") != got.replace(CURLY, "'"):  # float/bool/dict raise
                s -= 0.25
        total += s
        del fields_of[name]
    return total / denominator  # ZeroDivisionError for empty gold and "[]"


def _gold_text(value):
    if type(value) == str:
        return _straight(value)
    if type(value) == int:
        return str(value)
    return None  # never equal


def _predicted_text(value):
    if type(value) == str:
        return _straight(value)
    if type(value) == int:
        return str(value)
    return None  # float, bool, dict: a wrong value


def kvlens_score(prediction, gold):
    """KVLens's rule as SCHEMA.md states it: the published rule, extended where the
    evaluator raises (k fields scale the penalties, other value types are wrong,
    non-object elements are nameless, empty vs empty is 1); refuses bad gold."""
    names = []
    fields = []
    for obj in gold:
        if type(obj) != dict or type(obj.get("name")) != str:
            raise GoldRefused()
        name = _straight(obj["name"])
        if name in names:
            raise GoldRefused()
        names.append(name)
        fields.append([(k, v) for k, v in obj.items() if k != "name"])
    if not _brackets_ok(prediction):
        return 0.0
    try:
        items = json.loads(_fragment(prediction))
    except Exception:
        return 0.0
    matched = [False] * len(names)
    denominator = len(names)
    total = 0.0
    for item in items:
        if type(item) != dict or type(item.get("name")) != str:
            denominator += 1
            continue
        name = _straight(item["name"])
        if name not in names or matched[names.index(name)]:
            denominator += 1
            continue
        g = names.index(name)
        matched[g] = True
        k = len(fields[g])
        missing = wrong = 0
        for key, want in fields[g]:
            if item.get(key) is None:
                missing += 1
            elif _gold_text(want) is None or _predicted_text(item[key]) != _gold_text(want):
                wrong += 1
        total += 1.0 if k == 0 else (2 * k - 2 * missing - wrong) / (2 * k)
    return 1.0 if denominator == 0 else total / denominator


# ---- constructed cases ----------------------------------------------------------------

NAMES = ["Anna Berg", "Tom Lee", "Eva Stone", "Ola Kern", "Rui Park", "D\u2019Arcy Lane",
         "O'Neil Shaw", "Zo\u00eb Ruiz", "Ida Moss", "Max Hale"]
FIELDS = ["city", "job", "color", "pet", "code", "age"]
VALUES = {
    "city": ["Paris", "Oslo", "Rome", "St. Ives", "L\u2019Aquila", "L'Aquila"],
    "job": ["baker", "pilot", "cook", "nurse", "tailor"],
    "color": ["red", "blue", "teal", "Blue"],
    "pet": ["cat", "dog", "owl", "ox"],
    "code": ["4821", "0042", "7", "0", "-5", "123456789012345678901"],
    "age": ["42", "7", "0", "19"],
}


class Raw:
    """Text emitted verbatim into a prediction (raw newlines, NaN, -0, floats...)."""

    def __init__(self, text):
        self.text = text


def emit(value, rng):
    """JSON text of value, where objects are lists of (key, value) pairs (so keys can
    repeat) and Raw pieces go in as they are; spacing varies."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, list):  # an object: pairs
        sep = rng.choice([",", ", ", ",\n  ", " ,"])
        colon = rng.choice([":", ": ", " : "])
        return "{" + sep.join(emit_key(k, rng) + colon + emit(v, rng) for k, v in value) + "}"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=rng.random() < 0.3)
    return json.dumps(value)


def emit_key(key, rng):
    return key.text if isinstance(key, Raw) else json.dumps(key)


def make_gold(rng):
    n = rng.choice([0, 1, 2, 2, 3, 3, 4]) if rng.random() < 0.97 else 0
    k = rng.choice([2] * 14 + [1, 3, 4])
    names = rng.sample(NAMES, n)
    if n >= 2 and rng.random() < 0.05:
        names[1] = names[0]  # a repeated name
    if n >= 2 and rng.random() < 0.03 and "D\u2019Arcy Lane" in names[:1]:
        names[1] = "D'Arcy Lane"  # repeated after mapping the quote
    gold = []
    for name in names:
        keys = rng.sample(FIELDS, k)
        obj = {"name": name}
        for key in keys:
            obj[key] = rng.choice(VALUES[key])
        if rng.random() < 0.04:
            obj[keys[0]] = rng.choice([int(rng.choice(["5", "42", "0"])), None, True])
        gold.append(obj)
    if gold and rng.random() < 0.02:
        rng.choice(gold).pop("name")
    if gold and rng.random() < 0.01:
        gold[0]["name"] = 7
    return gold


def wrong_value(value, rng):
    options = ["Lima", "x", value.upper(), value + " ", ""]
    return rng.choice([o for o in options if o != value] or ["zzz"])


def mutate_value(value, rng, syntax):
    """One predicted value for a gold value: mostly right, else one of many kinds of
    wrong, missing-like or awkward; with `syntax`, also ones that break the brackets
    rule or json.loads."""
    r = rng.random() if syntax else 0.78 * rng.random()
    if r < 0.45 or not isinstance(value, str):
        return value
    if r < 0.55:
        return wrong_value(value, rng)
    if r < 0.62:
        return None  # null: missing for the evaluator
    if r < 0.68 and value.lstrip("-").isdigit():
        text = value if not value.startswith("0") or value == "0" else value.lstrip("0") or "0"
        return Raw(rng.choice([text, "-" + text, text + ".0", text + "e0"]))
    if r < 0.72:
        return value.replace("'", CURLY) if "'" in value else value.replace(CURLY, "'")
    if r < 0.75:
        return Raw(json.dumps(value)[:-1] + "\\n" + '"')  # escaped newline: a wrong value
    if r < 0.78:
        return Raw(json.dumps(value).replace(CURLY, "\\u2019").replace("a", "\\u0061"))
    if r < 0.82:
        return Raw(json.dumps(value)[:-1] + "\n" + '"')  # raw newline inside the string
    if r < 0.85:
        return Raw(json.dumps(value)[:-1] + "\t" + '"')  # raw tab
    if r < 0.88:
        return Raw(rng.choice(["true", "false", "NaN", "Infinity", "-Infinity", "4.5",
                               "{}", '{"v": "x"}', "1" * 4301]))
    if r < 0.91:
        return Raw("[" + json.dumps(value) + "]")  # a list value: a second bracket pair
    if r < 0.94:
        return "[" + value + "]"  # brackets inside a string
    return Raw("'" + value + "'")  # single quotes: not JSON


def mutate_object(obj, rng, syntax):
    """The predicted elements for one gold object (none, one or two)."""
    r = rng.random()
    if r < 0.08:
        return []
    pairs = []
    name = obj.get("name")
    nr = rng.random()
    if isinstance(name, str) and nr < 0.08:
        name = name.replace(CURLY, "'") if CURLY in name else name.replace("'", CURLY)
    elif nr < 0.12:
        name = rng.choice([None, 5, "anna berg", "Nobody Here", Raw("true")])
    if nr < 0.97:
        pairs.append(("name", name))
    for key, value in obj.items():
        if key == "name":
            continue
        if rng.random() < 0.1:
            continue  # missing field
        pairs.append((key, mutate_value(value, rng, syntax)))
    if rng.random() < 0.1:
        pairs.append((rng.choice(["extra", "note"]), "x"))
    if rng.random() < 0.05 and len(pairs) > 1:
        key, value = rng.choice(pairs[1:])
        pairs.append((key, wrong_value(value, rng) if isinstance(value, str) else "x"))
    if rng.random() < 0.05:
        pairs.append(("name", obj.get("name")))  # a repeated key: the last wins
    if rng.random() < 0.2:
        rng.shuffle(pairs)
    out = [pairs]
    if rng.random() < 0.08:
        out.append(pairs)  # the same person twice
    return out


def make_prediction(gold, rng):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", "I don't know.", "Anna Berg lives in Paris.", "null", "{}",
                           '{"name": "Anna Berg"}', "[", "]", "][", "[]", "[ ]"])
    elements = []
    syntax = rng.random() < 0.35
    for obj in gold if isinstance(gold, list) else []:
        if isinstance(obj, dict):
            elements.extend(mutate_object(obj, rng, syntax))
    if rng.random() < 0.3:
        rng.shuffle(elements)
    if rng.random() < 0.15:
        elements.append([("name", rng.choice(NAMES)), ("city", "Oslo")])
    if rng.random() < 0.1:
        elements.append([("city", "Rome"), ("job", "cook")])  # nameless
    if rng.random() < 0.1:
        elements.insert(rng.randrange(len(elements) + 1),
                        Raw(rng.choice(['"plain text"', '"his name is Tom"', "5", "null",
                                        "true", "4.5"])))
    sep = rng.choice([",", ", ", ",\n", " ,\n "])
    body = "[" + rng.choice(["", "\n", " "]) + sep.join(emit(e, rng) for e in elements)
    body += rng.choice(["", "\n", " "]) + "]"
    t = rng.random()
    if t < 0.05:
        body = body[:-1] + ",]"  # trailing comma
    elif t < 0.10 and len(body) > 2:
        body = body[:rng.randrange(1, len(body))]  # truncated
    elif t < 0.13:
        body = body.replace(",", "", 1)  # a missing comma
    w = rng.random()
    if w < 0.52:
        return body
    if w < 0.62:
        return rng.choice(["Answer: ", " ", "\n", "Here it is: "]) + body
    if w < 0.69:
        return "```json\n" + body + "\n```"
    if w < 0.76:
        return body + rng.choice([" done.", "\n", "</s>"])
    if w < 0.81:
        return "]" + body  # a stray ']' before the array
    if w < 0.88:
        return body + rng.choice(["\n[", '\n[{"name": "Anna', " [", '\n[{"name": "Tom Lee"}'])
    if w < 0.92:
        return body + "]"  # a second ']'
    if w < 0.96:
        return body.replace("[", "", 1)  # no '['
    return body + "\n" + body  # the list twice


def build_case(index, rng):
    gold = make_gold(rng)
    prediction = make_prediction(gold, rng)
    case = {"id": index, "gold": gold, "prediction": prediction}
    try:
        score = published_score(prediction, json.dumps(gold))
        source = "published"
        # KVLens's rule reduces to the published one wherever the evaluator scores.
        mine = kvlens_score(prediction, gold)
        if mine != score:
            sys.exit("case %d: the KVLens rule gives %r where the evaluator gives %r"
                     % (index, mine, score))
    except SkippedSample:
        score, source = None, "skipped"
    except (AssertionError, AttributeError, TypeError, KeyError, ZeroDivisionError):
        score, source = None, "raises"
    if score is None:
        try:
            score = kvlens_score(prediction, gold)
            source = "kvlens (evaluator %s)" % source
        except GoldRefused:
            source = "error (evaluator %s)" % source
    case["source"] = source
    case["expect"] = "error" if score is None else "score"
    if score is not None:
        case["score_hex"] = float(score).hex()
    return case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=2604)
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts = {}
    with open(args.out_dir + "/cases.jsonl", "w", encoding="utf-8") as out:
        for i in range(args.n):
            case = build_case(i, rng)
            counts[case["source"]] = counts.get(case["source"], 0) + 1
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    json.dump(counts, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
