#!/usr/bin/env python3
"""Text2JSON probe samples with fewer people or fields (docs/offloading-study.md).

Reads samples of `kvlens-cli tasks generate --suite text2json --variant fields2` and
keeps the first PEOPLE people of each (in order of first mention) with one asked field
(--fields 1, drawn per sample, seeded by the sample id) or both (--fields 2): the other
people's sentences are removed from the context, every span is moved to the shortened
text (a kept person's sentence of a field not asked becomes a distractor), and the
question, gold answer and meta.objects are rewritten in the generator's own wording and
key order. The output is a JSONL dataset for `kvlens-cli run --dataset` or a spec's
{"jsonl": ...}; `kvlens-cli tasks validate` checks it.

    text2json_fewer_people.py IN.jsonl OUT.jsonl --people 1 --fields 2
"""
import argparse
import json
import random


def probe(sample, people, field_count):
    objects = sample["meta"]["objects"]
    keep = [o["name"] for o in objects[:people]]
    asked = list(sample["meta"]["fields"])
    if field_count == 1:
        asked = [random.Random(sample["id"]).choice(asked)]
    context = sample["context"]
    text, pos, spans = "", 0, []
    for span in sorted(sample["spans"], key=lambda s: s["begin"]):
        name, _, field = span["label"].rpartition(".")
        text += context[pos:span["begin"]]
        if name not in keep:  # drop the sentence and the space after it
            pos = span["end"] + (1 if context[span["end"]:span["end"] + 1] == " " else 0)
            continue
        begin = len(text)
        text += context[span["begin"]:span["end"]]
        pos = span["end"]
        kind = "evidence" if field in asked else "distractor"
        spans.append(dict(span, begin=begin, end=len(text), kind=kind))
    text += context[pos:]
    lead = len(text) - len(text.lstrip())
    for span in spans:
        span["begin"] -= lead
        span["end"] -= lead
    gold = [dict([("name", o["name"])] + [(f, o[f]) for f in asked]) for o in objects[:people]]
    keys = ["name"] + asked
    keys_text = keys[0] + " and " + keys[1] if len(keys) == 2 else ", ".join(keys[:-1]) + " and " + keys[-1]
    return dict(sample,
                id="%s-p%df%d" % (sample["id"], people, field_count),
                variant="people%d_fields%d" % (people, field_count),
                context=text.strip(),
                spans=spans,
                question="\nQuestion: List every person as JSON with the keys %s.\nAnswer:" % keys_text,
                answer=json.dumps(gold, separators=(",", ":")),
                meta={"fields": asked, "objects": gold})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--people", type=int, default=1)
    parser.add_argument("--fields", type=int, choices=(1, 2), default=2)
    args = parser.parse_args()
    with open(args.input) as f:
        samples = [json.loads(line) for line in f if line.strip()]
    with open(args.output, "w") as f:
        for s in samples:
            if len(s["meta"]["objects"]) < args.people:
                raise SystemExit("%s: sample %s has fewer than %d people"
                                 % (args.input, s["id"], args.people))
            f.write(json.dumps(probe(s, args.people, args.fields)) + "\n")


if __name__ == "__main__":
    main()
