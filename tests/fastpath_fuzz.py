#!/usr/bin/env python3
"""The fast path for tfvars values (src/module/fastval.c) against the general path,
on every fixture module and on modules generated at random.

Usage: fastpath_fuzz.py [options] FASTPATH_DIFF FIXTURES

  --seed N     the generator's seed (default 1; a run is deterministic)
  --count N    how many modules to generate (default 400)
  --keep DIR   write the generated modules into DIR (kept) instead of a
               temporary directory
  --jobs N     fastpath_diff processes run at once (default: CPU count, at
               most 4)

First every module directory under FIXTURES (any directory holding a .tf or
.tf.json file) goes through FASTPATH_DIFF, a few directories per process.
Then COUNT modules are generated: a variables.tf of one to six variables
with random type constraints (primitives, collections, tuples, objects
nested up to four deep with optional attributes and their defaults, `any`,
no type at all, nullable = false, defaults) and a terraform.tfvars
(sometimes also an a.auto.tfvars overriding some names, or a
terraform.tfvars.json) of values that mostly fit the types but often do
not, written in every way the native syntax allows (escapes, quoted and
non-ASCII keys, comments, separators, trailing commas, CRLF...), with some
expressions outside the fast path's literal subset, undeclared names,
blocks and syntax errors.  Then COUNT/2 modules whose variables repeat
validation rules with only their own name changed, with traps (the name in
strings and comments, other variables, local values, `var` as a whole),
read block by block (later rules share the first one's trees) and whole
(each rule its own).  fastpath_diff resolves each module with and
without the fast path; the files of every module that differs are printed
so that it can be reproduced.

The last line is "N passed, M failed", both steps together; the exit
status is 0 only when nothing failed.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

# ---------------------------------------------------------------------------
# Types
#
#   ("string",) ("number",) ("bool",) ("any",)
#   ("list", T) ("set", T) ("map", T) ("tuple", [T, ...])
#   ("object", [(name, T, optional, default_node_or_None), ...])
#   ("none",): a variable without a type argument

PRIMS = ("string", "number", "bool")
ATTR_NAMES = ["a", "b", "c", "id", "name", "port", "enabled", "tags",
              "items", "cfg", "x-y", "_z", "A", "sub", "n2", "value"]
# Names HCL reads as identifiers (the last one NFD), not the subset's.
UNICODE_NAMES = ["\u00e9", "na\u00efve", "e\u0301x", "\u65e5\u672c"]
IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


class Gen:
    """One generated module, from its own random generator."""

    def __init__(self, rng):
        self.rng = rng
        # How often a value does not fit its type, is null, has a comment
        # next to it, is an expression outside the subset, is broken.
        self.wrong = rng.choice([0.0, 0.0, 0.03, 0.1, 0.25])
        self.null = rng.choice([0.0, 0.03, 0.1])
        self.comments = rng.choice([0.0, 0.0, 0.1, 0.3])
        self.exprs = rng.choice([0.0, 0.0, 0.0, 0.03, 0.1])
        self.errors = rng.choice([0.0] * 8 + [0.05, 0.2])
        self.style = rng.choice(["inline", "multi", "mixed", "mixed"])
        # Half the modules keep to the fast path's subset (values that do
        # not convert aside): no block comments, odd strings, expressions.
        self.subset = rng.random() < 0.5
        if self.subset:
            self.exprs = self.errors = 0.0
        self.bad_defaults = 0.0 if self.subset else rng.choice([0.0, 0.0, 0.03])

    def chance(self, p):
        return self.rng.random() < p

    # ---- types --------------------------------------------------------

    def gen_type(self, depth):
        rng = self.rng
        if depth <= 0 or self.chance(0.35):
            if self.chance(0.03):
                return ("any",)
            return (rng.choice(PRIMS),)
        kind = rng.choices(["list", "set", "map", "tuple", "object"],
                           weights=[3, 1.5, 2, 1, 5])[0]
        if kind in ("list", "set", "map"):
            return (kind, self.gen_type(depth - 1))
        if kind == "tuple":
            return ("tuple", [self.gen_type(depth - 1)
                              for _ in range(rng.randint(0, 3))])
        pool = ATTR_NAMES + (UNICODE_NAMES if self.chance(0.1) else [])
        names = rng.sample(pool, rng.randint(1, 8 if self.chance(0.15) else 4))
        attrs = []
        for name in names:
            t = self.gen_type(depth - 1)
            optional = self.chance(0.55)
            default = None
            if optional and self.chance(0.6):
                default = self.gen_default(t, depth - 1)
            attrs.append((name, t, optional, default))
        return ("object", attrs)

    def gen_default(self, t, depth):
        """A default for an optional attribute of type t (a node)."""
        rng = self.rng
        k = t[0]
        r = rng.random()
        if r < 0.15:
            return lit("null")
        if r < 0.15 + self.bad_defaults:  # does not convert: invalid
            return self.wrong_value(t, depth)
        if k == "object" and r < 0.55 and (
                all(a[2] for a in t[1]) or self.chance(0.03)):
            return ("obj", [])  # invalid when an attribute is required
        if k in ("list", "set") and r < 0.4:
            if t[1][0] == "object" and self.chance(0.6):
                return ("tup", [("obj", [])])
            return ("tup", [])
        if k == "map" and r < 0.4:
            return ("obj", [])
        saved = (self.wrong, self.null, self.exprs, self.subset)
        self.wrong, self.null, self.exprs, self.subset = 0.0, 0.05, 0.0, True
        v = self.gen_value(t, depth)
        self.wrong, self.null, self.exprs, self.subset = saved
        return v

    # ---- values -------------------------------------------------------

    def gen_value(self, t, depth=4, in_tuple=False):
        rng = self.rng
        if self.chance(self.null):
            return lit("null")
        if self.chance(self.wrong):
            return self.wrong_value(t, depth)
        if self.chance(self.exprs):
            return self.expr_value(t, in_tuple)
        k = t[0]
        if k == "string":
            r = rng.random()
            if r < 0.75:
                return self.string_leaf()
            if r < 0.9:
                return self.number_leaf()
            return self.bool_leaf()
        if k == "number":
            if self.chance(0.85):
                return self.number_leaf()
            return str_leaf(rng.choice(["15", "1.5", "-3", "1e3", "0",
                                        "12345678901234567890123"]), rng)
        if k == "bool":
            if self.chance(0.85):
                return self.bool_leaf()
            return str_leaf(rng.choice(["true", "false"]), rng)
        if k in ("list", "set"):
            n = rng.choice([0, 1, 1, 2, 2, 3, 4])
            elems = [self.gen_value(t[1], depth - 1, True) for _ in range(n)]
            if k == "set" and elems and self.chance(0.4):
                elems.insert(rng.randint(0, len(elems)), rng.choice(elems))
            return ("tup", elems)
        if k == "map":
            n = rng.choice([0, 1, 2, 3])
            items = []
            for _ in range(n):
                items.append((self.map_key(), self.gen_value(t[1], depth - 1)))
            if items and self.chance(self.wrong + 0.05):
                # a repeated key: the last one wins
                key = rng.choice(items)[0]
                items.insert(rng.randint(0, len(items)),
                             (key, self.gen_value(t[1], depth - 1)))
            return ("obj", items)
        if k == "tuple":
            return ("tup", [self.gen_value(x, depth - 1, True) for x in t[1]])
        if k == "object":
            items = []
            for name, at, optional, _ in t[1]:
                if optional and self.chance(0.4):
                    continue
                if not optional and self.chance(self.wrong * 0.5):
                    continue  # a required attribute missing
                items.append((self.attr_key(name),
                              self.gen_value(at, depth - 1)))
            for _ in range(rng.choice([1, 1, 1, 3])):
                if self.chance(self.wrong + 0.05):  # an extra attribute
                    name = rng.choice(ATTR_NAMES + ["zz"]) if \
                        self.chance(0.5) else near_miss(rng, rng.choice(t[1])[0])
                    items.append((self.attr_key(name),
                                  self.any_value(depth - 1)))
            if items and self.chance(self.wrong * 0.5 + 0.03):
                name = rng.choice(t[1])
                items.insert(rng.randint(0, len(items)),
                             (self.attr_key(name[0]),
                              self.gen_value(name[1], depth - 1)))
            if self.chance(0.3):
                rng.shuffle(items)
            return ("obj", items)
        # any, none
        return self.any_value(depth)

    def any_value(self, depth):
        rng = self.rng
        r = rng.random()
        if depth <= 0 or r < 0.5:
            return rng.choice([self.string_leaf, self.bool_leaf,
                               self.number_leaf,
                               lambda: lit("null")])()
        if r < 0.75:
            return ("tup", [self.any_value(depth - 1)
                            for _ in range(rng.randint(0, 3))])
        keys = [self.attr_key(rng.choice(ATTR_NAMES)) if self.chance(0.6)
                else self.map_key() for _ in range(rng.randint(0, 3))]
        return ("obj", [(k, self.any_value(depth - 1)) for k in keys])

    def wrong_value(self, t, depth):
        """Something that usually does not fit t."""
        rng = self.rng
        k = t[0]
        r = rng.random()
        if k == "number" and r < 0.6:
            return str_leaf(rng.choice(["abc", " 1", "1 ", "+1", "0x10",
                                        "1_000", "", "Infinity", "NaN",
                                        "1e999999999", "١", "1.5.2", "-",
                                        "007", "-0", "1E-2"]), rng)
        if k == "bool" and r < 0.6:
            return rng.choice([
                lambda: str_leaf(rng.choice(["TRUE", "True", "1", "0", "yes",
                                             "", "false ", "null"]), rng),
                self.number_leaf])()
        if k == "string" and r < 0.3:
            return rng.choice([("tup", []), ("obj", []), lit("null")])
        if k == "tuple" and r < 0.6:
            n = len(t[1]) + rng.choice([-1, 1, 2])
            return ("tup", [self.gen_value(rng.choice(t[1]) if t[1]
                                           else ("string",), depth - 1, True)
                            for _ in range(max(n, 0))])
        if k == "object" and r < 0.5:
            items = [(self.attr_key(name), self.gen_value(at, depth - 1))
                     for name, at, _, _ in t[1] if self.chance(0.5)]
            return ("obj", items)
        if k in ("list", "set") and r < 0.5:
            return ("obj", [(self.map_key(), self.gen_value(t[1], depth - 1))])
        if k == "map" and r < 0.5:
            return ("tup", [self.gen_value(t[1], depth - 1, True)])
        return self.any_value(min(depth, 2))

    def expr_value(self, t, in_tuple):
        """An expression outside the literal subset (the general path's)."""
        rng = self.rng
        k = t[0]
        common = ["var.x", "local.y", "nosuch(1)", "x", "each.key",
                  "count.index", "[1, 2][5]", "1 +", "(", "!", "-\"5\"",
                  "-true"]
        by_kind = {
            "number": ["1 + 2", "(3)", "true ? 1 : 2", "[1, 2][0]",
                       "max(1, 5)", "-(4)", "2 * 3.5", "length([1])",
                       "{a = 1}.a", "{a = 1}[\"a\"]"],
            "string": ["\"x-${\"y\"}\"", "upper(\"x\")", "\"a${1}b\"",
                       "\"%{if true}yes%{endif}\"", "\"${\"\"}\"",
                       "format(\"%s\", \"v\")", "\"$${x}-${1}\""],
            "bool": ["!false", "1 == 1", "true && false", "\"a\" != \"b\""],
            "list": ["[for x in [1, 2] : x]", "tolist([])", "concat([], [])",
                     "[for s in [\"a\", \"b\"] : upper(s)]"],
            "set": ["toset([])", "[for x in [1, 1] : x]"],
            "map": ["{for k in [\"a\"] : k => 1}", "tomap({})",
                    "merge({}, {})"],
            "object": ["{for k in [\"a\"] : k => 1}", "merge({}, {})"],
            "tuple": ["[for x in [] : x]", "[1, \"a\"]"],
        }
        choices = by_kind.get(k, []) * 3 + common
        if not in_tuple and k in ("string", "any", "none") and self.chance(0.4):
            return ("heredoc", rng.choice([
                "<<EOT\nhello\nEOT", "<<-EOT\n    indented\n    EOT",
                "<<EOT\n${1 + 1}\nEOT", "<<EOT\nEOT", "<<EOT\na\"b\\n\nEOT"]))
        return lit(rng.choice(choices))

    # ---- leaves -------------------------------------------------------

    def string_leaf(self):
        rng = self.rng
        r = rng.random()
        if r < 0.08 and not self.subset:  # odd escapes, templates...
            return lit(rng.choice(ODD_STRINGS))
        return str_leaf(self.plain_string(), rng)

    def plain_string(self):
        rng = self.rng
        if self.chance(0.6):
            return rng.choice(STRINGS)
        return "".join(rng.choice(STRINGS + PIECES)
                       for _ in range(rng.randint(1, 4)))

    def number_leaf(self):
        n = self.rng.choice(NUMBERS)
        while self.subset and n in OUT_OF_RANGE:
            n = self.rng.choice(NUMBERS)
        return lit(n)

    def bool_leaf(self):
        return lit(self.rng.choice(["true", "false"]))

    def attr_key(self, name):
        """The key of an object attribute: bare, quoted, escaped."""
        rng = self.rng
        r = rng.random()
        if r < 0.7 or not name:
            if IDENT_RE.match(name) or (not self.subset and self.chance(0.5)):
                return name
            return quote(name, rng)
        if r < 0.9:
            return quote(name, rng)
        # an escape for one of its characters
        i = rng.randrange(len(name))
        return ('"' + name[:i].replace("\\", "\\\\") +
                "\\u%04x" % ord(name[i]) + name[i + 1:] + '"')

    def map_key(self):
        rng = self.rng
        k = rng.choice(MAP_KEYS)
        if IDENT_RE.match(k) and k not in ("true", "false", "null", "for") \
                and self.chance(0.6):
            return k
        if k in BARE_ODD_KEYS and not self.subset and self.chance(0.3):
            return k  # a bare name the subset does not read
        return quote(k, rng)


NUMBERS = ["0", "1", "2", "5", "7", "15", "42", "100", "999", "1000", "007",
           "00", "1.50", "1.5", "0.5", "3.14159", "0.1000000000000000000001",
           "1e3", "1E-2", "1e+2", "1.5e2", "1e999999999", "1e-999999999",
           "12345678901234567890123", "-0", "-5", "-1.5", "- 7", "-1e3",
           "0.0", "9007199254740993", "2e308", "4.9e-324", "-007", "-0.0",
           "340282366920938463463374607431768211457", "1e0", "10E1"]

OUT_OF_RANGE = {"1e999999999", "1e-999999999"}

STRINGS = ["", "a", "abc", "hello world", "15", " 1", "1 ", "1e3", "-5",
           "1.50", "true", "TRUE", "false", "1", "0", "null", "\u00e9",
           "e\u0301", "caf\u00e9", "cafe\u0301", "\u65e5\u672c", "\U0001F600",
           "tab\there", "line\nbreak", "quote\"in", "back\\slash", "${x}",
           "%{x}", "$", "%", "$$", "a$b", "100%", "$${x}", "x\r\ny",
           "\u00c5", "A\u030a", "\u1e9b\u0323", "\u0000", "\x7f", "\ufeff"]

PIECES = ["$", "{", "}", "%", "\\", "\"", "\n", "\t", "e", "\u0301",
          "\u00e9", " ", "#", "//", "/*", "=", ",", "${", "%{"]

# String literals written as they are, escapes and templates included.
ODD_STRINGS = [r'"\q"', r'"\u12"', r'"\ud800"', r'"\U00110000"',
               r'"\U0001F600"', r'"\u00E9"', r'"e\u0301"', '"$${"',
               '"$$${x}"', '"%%{"', '"%%%{x}"', '"$$"', '"a$"', '"$"',
               '"%"', '"a\\\\${x}"', r'"\\"', r'"\""', '"\t"', r'"\r"',
               r'"\u0000"', r'"\U00000041"', '"\u00e9"', '"e\u0301"',
               '"unterminated', '"two\nlines"', '"\x01"', r'"\/"',
               '"${"', '"%{"', '"$ {x}"', '"% {x}"', '"\\$"', '"$\\{"']

MAP_KEYS = ["a", "b", "c", "key1", "a-b", "a_b", "a b", "", "\u00e9",
            "e\u0301", "\u65e5\u672c", "\U0001F600", "1", "true", "null",
            "for", "x.y", "${x}", "A", "aa", "a\n", "-a", "a-", "Z", "\t",
            "a\u0000b", "a\u0000c", "a\u0000", "\u00e9x", "e\u0301x"]
BARE_ODD_KEYS = {"true", "null", "for", "\u00e9", "e\u0301", "\u65e5\u672c"}


def lit(text):
    return ("lit", text)


def quote(s, rng):
    """s as an HCL quoted string, escaped in one of the ways it can be."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c in "$%" and i + 1 < len(s) and s[i + 1] == "{":
            out.append(c + c + "{")
            i += 2
            continue
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t" if rng.random() < 0.7 else "\t")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        elif o >= 0x80:
            r = rng.random()
            if r < 0.6:
                out.append(c)
            elif o > 0xFFFF:
                out.append("\\U%08X" % o if r < 0.8 else "\\U%08x" % o)
            else:
                out.append("\\u%04X" % o if r < 0.8 else "\\u%04x" % o)
        elif c.isalnum() and rng.random() < 0.03:
            out.append("\\u%04x" % o)
        else:
            out.append(c)
        i += 1
    return '"' + "".join(out) + '"'


def str_leaf(s, rng):
    return lit(quote(s, rng))


# ---------------------------------------------------------------------------
# Writing values


COMMENTS = ["# c", "// c", "/* c */", "#", "# a = 1", "/* x\ny */", "//"]


class Writer:
    """Native-syntax text of a value tree, formatted at random."""

    def __init__(self, g):
        self.g = g
        self.rng = g.rng

    def comment(self):
        c = self.rng.choice(COMMENTS)
        while self.g.subset and c.startswith("/*"):
            c = self.rng.choice(COMMENTS)
        return c

    def value(self, node, ind, in_tuple=False):
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "heredoc":
            return node[1]
        if kind == "tup":
            return self.tuple(node[1], ind)
        return self.object(node[1], ind)

    def tuple(self, elems, ind):
        rng = self.rng
        if not elems:
            return rng.choice(["[]", "[ ]", "[\n" + ind + "]"])
        multi = self.g.style == "multi" or (self.g.style == "mixed" and
                                            rng.random() < 0.4)
        inner = ind + "  "
        if not multi:
            parts = [self.value(e, ind, True) for e in elems]
            sep = rng.choice([", ", ",", " , "])
            s = "[" + sep.join(parts)
            if rng.random() < 0.2:
                s += ","
            if rng.random() < self.g.comments and not self.g.subset:
                s = "[/* c */ " + s[1:]
            return s + "]"
        out = ["["]
        if rng.random() < self.g.comments:
            out.append(" " + self.comment())
        out.append("\n")
        for i, e in enumerate(elems):
            last = i == len(elems) - 1
            out.append(inner + self.value(e, inner, True))
            if not last or rng.random() < 0.6:
                out.append(",")
            if rng.random() < self.g.comments:
                out.append(" " + self.comment())
            out.append("\n")
        if rng.random() < 0.1:  # a newline before the comma is fine here
            out[-1] = "\n"
        out.append(ind + "]")
        return "".join(out)

    def object(self, items, ind):
        rng = self.rng
        if not items:
            return rng.choice(["{}", "{ }", "{\n" + ind + "}"])
        heredoc = any(v[0] == "heredoc" for _, v in items)
        multi = heredoc or self.g.style == "multi" or (
            self.g.style == "mixed" and rng.random() < 0.5)
        inner = ind + "  "
        if not multi:
            parts = []
            for k, v in items:
                parts.append(k + rng.choice([" = ", "=", " : ", ": "]) +
                             self.value(v, inner))
            sep = rng.choice([", ", ","])
            s = "{ " + sep.join(parts)
            if rng.random() < 0.2:
                s += ","
            if rng.random() < self.g.comments and not self.g.subset:
                s = "{ /* c */" + s[1:]
            return s + rng.choice([" }", "}"])
        out = ["{"]
        commented = rng.random() < self.g.comments
        if commented:
            out.append(" " + self.comment())
        # sometimes the first item on the line of the brace
        first_inline = not heredoc and not commented and rng.random() < 0.1
        out.append(" " if first_inline else "\n")
        for i, (k, v) in enumerate(items):
            last = i == len(items) - 1
            if rng.random() < self.g.comments * 0.5:
                out.append(inner + self.comment() + "\n")
            eq = rng.choice([" = ", " = ", "=", ": "])
            if rng.random() < self.g.errors * 0.3:
                eq = " =\n" + inner  # the value on the next line: an error
            out.append(("" if i == 0 and first_inline else inner) + k + eq +
                       self.value(v, inner))
            if v[0] != "heredoc" and rng.random() < 0.3:
                if not last or rng.random() < 0.5:
                    out.append(",")
            commented = v[0] != "heredoc" and rng.random() < self.g.comments
            if commented:
                out.append(" " + self.comment())
            if last and v[0] != "heredoc" and not commented and \
                    rng.random() < 0.1:
                out.append(" }")  # the brace on the line of the last item
                return "".join(out)
            out.append("\n")
        out.append(ind + "}")
        return "".join(out)


def json_value(node, rng):
    """The tree as JSON text (what does not exist in JSON becomes a
    string)."""
    kind = node[0]
    if kind == "tup":
        return "[" + ", ".join(json_value(e, rng) for e in node[1]) + "]"
    if kind == "obj":
        items = []
        for k, v in node[1]:
            if k.startswith('"'):
                key = k
            else:
                key = '"' + k + '"'
            items.append(key + ": " + json_value(v, rng))
        return "{" + ", ".join(items) + "}"
    text = node[1]
    if text in ("true", "false", "null"):
        return text
    if re.match(r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$", text):
        return text
    if text.startswith('"') and text.endswith('"') and len(text) > 1 and \
            "\n" not in text and "\t" not in text and \
            re.fullmatch(r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"',
                         text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') \
        .replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + '"'


# ---------------------------------------------------------------------------
# Modules

VAR_NAMES = ["v1", "v2", "v3", "v4", "v5", "v6", "my-var", "_x", "list",
             "obj", "Name", "a"]


def type_text(t, rng, ind=""):
    k = t[0]
    if k in PRIMS or k == "any":
        return k
    if k in ("list", "set", "map"):
        return "%s(%s)" % (k, type_text(t[1], rng, ind))
    if k == "tuple":
        return "tuple([%s])" % ", ".join(type_text(x, rng, ind) for x in t[1])
    inner = ind + "  "
    parts = []
    w = Writer(PlainGen(rng))
    for name, at, optional, default in t[1]:
        s = type_text(at, rng, inner)
        if optional:
            if default is not None:
                s = "optional(%s, %s)" % (s, w.value(default, inner))
            else:
                s = "optional(%s)" % s
        parts.append("%s = %s" % (name, s))
    if rng.random() < 0.5:
        return "object({" + ", ".join(parts) + "})"
    return "object({\n" + "".join(inner + p + "\n" for p in parts) + ind + "})"


class PlainGen:
    """Formatting settings for declarations: no comments, no errors."""

    def __init__(self, rng):
        self.rng = rng
        self.comments = 0.0
        self.errors = 0.0
        self.style = "inline"


def big_list(g, huge=False):
    """A variable with a list of a few thousand objects (huge: a file of
    more than 1 MiB, which is read otherwise)."""
    rng = g.rng
    kind = rng.choice(["list", "list", "set", "map"])
    elem = ("object", [("id", ("number",), False, None),
                       ("name", ("string",), True, lit('"n"')),
                       ("on", ("bool",), True, lit("true")),
                       ("tags", ("map", ("string",)), True, ("obj", [])),
                       ("sub", ("object", [("x", ("number",), True,
                                            lit("1"))]), True, ("obj", []))])
    t = (kind, elem)
    n = rng.randint(24000, 30000) if huge else rng.randint(1500, 3500)
    bad = -1
    if rng.random() < 0.4:
        bad = n - 1 - rng.randrange(50) if huge else rng.randrange(n)
    lines = []
    for i in range(n):
        parts = ["id = %d" % i]
        if i % 3 == 0:
            parts.append('name = "item-%d"' % i)
        elif huge:  # the same strings again, and strings alike
            parts.append('name = "%s"' % rng.choice(
                ["a", "b", "item", "item-1", "item-01", "item-1 ", "meti",
                 "x" * 64, "x" * 65, "x" * 63 + "y"]))
        if i % 5 == 1:
            parts.append("on = %s" % ("false" if i % 2 else "null"))
        if i % 7 == 2:
            parts.append('tags = { env = "e%d", "k-%d" = "%d" }' % (i, i, i))
        if i % 11 == 3:
            parts.append("sub = { x = %d }" % i)
        if i == bad:
            parts[0] = rng.choice(['id = "x%d"' % i, "id = null",
                                   "zz = 1", 'sub = "s"', "id = [1]"])
            if parts[0] == "zz = 1":
                parts.append("id = 1 + %d" % i)
        obj = "{ " + ", ".join(parts) + " }"
        if kind == "map":
            lines.append('  "k%05d" = %s' % (i if i != bad else 0, obj))
        else:
            lines.append("  " + obj + ",")
    if kind == "set" and rng.random() < 0.5:
        lines.append("  { id = 0 },")  # a duplicate
    opener, closer = ("{", "}") if kind == "map" else ("[", "]")
    value = opener + "\n" + "\n".join(lines) + "\n" + closer
    return t, value


def near_miss(rng, name):
    """A name close to an attribute's: one character changed (the same
    length, first and last character, as a cheap hash would have it),
    or one more or one less."""
    r = rng.random()
    if len(name) >= 3 and r < 0.6:
        i = rng.randrange(1, len(name) - 1)
        c = rng.choice([ch for ch in "abcxyz_0129" if ch != name[i]])
        return name[:i] + c + name[i + 1:]
    if r < 0.8 or len(name) < 2:
        return name + rng.choice(["_", "x", "0", "-"])
    return name[:-1]


def wide_object(g):
    """An object type of many attributes with similar names (a few
    hundred at times), some optional with defaults."""
    rng = g.rng
    n = rng.choice([12, 30, 64, 100, 253, 254, 255, 300])
    style = rng.choice(["k%d", "a%dz", "attr_%03d_x", "x%d", "%s"])
    names = []
    for i in range(n):
        if style == "%s":
            names.append("".join(rng.choice("ab") for _ in range(2 + i % 5)) +
                         str(i))
        else:
            names.append(style % i)
    attrs = []
    for name in names:
        t = (rng.choice(PRIMS),) if rng.random() < 0.8 else \
            ("list", (rng.choice(PRIMS),))
        optional = rng.random() < 0.5
        default = None
        if optional and rng.random() < 0.5:
            default = g.gen_default(t, 1)
        attrs.append((name, t, optional, default))
    return ("object", attrs)


def deep_value(rng, depth):
    if rng.random() < 0.5:
        return "[" * depth + "1" + "]" * depth
    return "{a = " * depth + "1" + "}" * depth


def gen_module(rng, huge=False):
    """{file name: bytes} of one random module (huge: with a tfvars file
    of more than 1 MiB)."""
    g = Gen(rng)
    nvars = rng.randint(1, 6)
    names = rng.sample(VAR_NAMES, nvars)
    decls = []   # (name, type)
    blocks = []
    extra_values = {}  # name -> value text written as is
    for name in names:
        r = rng.random()
        if r < 0.07:
            t = ("any",)
        elif r < 0.12:
            t = ("none",)
        elif r < 0.15:
            t = (rng.choice(["list", "map", "set"]), ("any",))
        else:
            t = g.gen_type(rng.choice([1, 2, 3, 4, 4]))
        lines = ['variable "%s" {' % name]
        if t[0] != "none":
            lines.append("  type = " + type_text(t, rng, "  "))
        if not huge and rng.random() < 0.2:
            saved = (g.wrong, g.exprs, g.subset)
            g.wrong, g.exprs = (0.0, 0.0) if rng.random() < 0.85 else \
                (0.05, g.exprs)
            g.subset = g.subset or g.wrong == 0.0
            lines.append("  default = " +
                         Writer(PlainGen(rng)).value(g.gen_value(t, 3), "  "))
            g.wrong, g.exprs, g.subset = saved
        if rng.random() < 0.15:
            lines.append("  nullable = false")
        if rng.random() < 0.05:
            lines.append("  sensitive = true")
        if rng.random() < 0.04:
            lines.append("  validation {\n    condition = var.%s != null\n"
                         '    error_message = "Must not be null."\n  }' % name)
        lines.append("}")
        blocks.append("\n".join(lines))
        decls.append((name, t))
    if huge or rng.random() < 0.02:
        name = "big"
        t, text = big_list(g, huge)
        blocks.append('variable "big" {\n  type = %s\n}' % type_text(t, rng))
        decls.append((name, t))
        extra_values[name] = text
    if rng.random() < 0.04:
        name = "wide"
        t = wide_object(g)
        if rng.random() < 0.3:
            t = (rng.choice(["list", "map", "set"]), t)
        blocks.append('variable "wide" {\n  type = %s\n}' % type_text(t, rng))
        decls.append((name, t))
    if rng.random() < 0.02:
        name = "deep"
        depth = rng.choice([150, 199, 200, 201, 202, 250])
        blocks.append('variable "deep" {\n  type = any\n}')
        decls.append((name, ("any",)))
        extra_values[name] = deep_value(rng, depth)
    files = {"variables.tf": "\n\n".join(blocks) + "\n"}

    def tfvars_text(chosen, allow_extra=True):
        entries = []
        for name, t in chosen:
            if name in extra_values:
                entries.append((name, extra_values[name]))
                continue
            saved = (g.wrong, g.exprs)
            if name == "wide" and rng.random() < 0.7:
                g.wrong, g.exprs = rng.choice([0.0, 0.002]), 0.0
            v = g.gen_value(t)
            g.wrong, g.exprs = saved
            entries.append((name, Writer(g).value(v, "")))
        if allow_extra and rng.random() < 0.15:
            for _ in range(rng.randint(1, 2)):
                name = rng.choice(["undeclared", "v7", "typo_v1", "x-y",
                                   "null", "true", "for"])
                entries.append((name, Writer(g).value(g.any_value(2), "")))
        if entries and rng.random() < 0.03:  # the same name twice
            entries.append(rng.choice(entries))
        rng.shuffle(entries)
        out = []
        for name, text in entries:
            w = Writer(g)
            if rng.random() < g.comments:
                out.append(w.comment())
            eq = rng.choice([" = ", " = ", "=", "  =  ", "\t=\t"])
            if rng.random() < g.comments * 0.3 and not g.subset:
                eq = " = /* c */ "
            line = name + eq + text
            if rng.random() < g.errors:
                line = corrupt(rng, name, text)
            if rng.random() < g.comments and not text.endswith("EOT"):
                line += rng.choice([" ", "", "\t"]) + w.comment()
            out.append(line)
        if rng.random() < 0.03 and not g.subset:
            out.append(rng.choice(['blk {\n  a = 1\n}', 'blk "l" {}',
                                   "blk {}", 'v1 "x" {\n}']))
        if rng.random() < 0.05:
            out.insert(0, "")
        text = "\n".join(out)
        if rng.random() < 0.8:
            text += "\n"
        return text

    declared = decls[:]
    chosen = [d for d in declared if rng.random() < 0.85 or
              (huge and d[0] == "big")]
    if huge or rng.random() < 0.92:
        files["terraform.tfvars"] = tfvars_text(chosen)
    if rng.random() < 0.3:
        sub = [d for d in declared if rng.random() < 0.5]
        files["a.auto.tfvars"] = tfvars_text(sub)
    if rng.random() < 0.05:
        sub = [d for d in declared if rng.random() < 0.3]
        files["b.auto.tfvars"] = tfvars_text(sub, False)
    if rng.random() < 0.12:
        items = []
        for name, t in declared:
            if rng.random() < 0.5 and name not in extra_values:
                saved = g.exprs
                g.exprs = 0.0
                items.append('  "%s": %s' % (name, json_value(g.gen_value(t),
                                                               rng)))
                g.exprs = saved
        files["terraform.tfvars.json"] = "{\n" + ",\n".join(items) + "\n}\n"
    out = {}
    for fname, text in files.items():
        data = text.encode("utf-8", "surrogatepass")
        if fname.endswith("tfvars"):
            if rng.random() < 0.08:
                data = data.replace(b"\n", b"\r\n")
            if rng.random() < 0.04:
                data = b"\xef\xbb\xbf" + data
            if rng.random() < 0.01:
                data += b'\nz = "\xff"\n'  # not UTF-8
        out[fname] = data
    return out


def corrupt(rng, name, text):
    """An attribute line with a syntax error."""
    r = rng.random()
    if r < 0.2:
        return name + " = "
    if r < 0.4 and text and text[-1] in "]}":
        return name + " = " + text[:-1]  # a bracket missing
    if r < 0.5:
        return name + " =\n" + text
    if r < 0.6:
        return name + " = " + text + " " + text
    if r < 0.7:
        return name + " = " + text + ", y = 1"
    if r < 0.8:
        return name + " = [1,,2]"
    if r < 0.9:
        return name + ' = { a = 1 b = 2 }'
    return name + " = " + text.replace(",", ",,", 1)


# Pieces a configuration file is mutated with: the loader reads a plain
# file block by block, and falls back to parsing it whole (undoing what it
# did) on anything else; both ways must give the same.
TF_PIECES = ["\n", "}", "{", '"', "=", 'variable "z" {\n', "type = string\n",
             "#", " ", "\t", "\r\n", "validation {\n", "(", ")", "[", "]",
             ",", "1e", "-", "\\u00e9", "\u00e9", "locals {\n  q = 1\n}\n",
             "type = object({a=optional(number,1)})\n", "\n}\n",
             'resource "r" "s" {\n}\n', "default = null\n", "x = 1\n"]


def mutate_tf(rng, text):
    """text with a few insertions, deletions and copied spans."""
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        r = rng.random()
        if r < 0.5:
            text = text[:i] + rng.choice(TF_PIECES) + text[i:]
        elif r < 0.8:
            text = text[:i] + text[i + rng.randint(1, 5):]
        else:
            j = rng.randint(0, len(text))
            text = text[:i] + text[j:j + 40] + text[i:]
    return text


# ---------------------------------------------------------------------------
# Running fastpath_diff

SUMMARY_RE = re.compile(r"^(\d+) passed, (\d+) failed$")


# ---------------------------------------------------------------------------
# Modules whose variables repeat rules with only their own name changed:
# read block by block, later rules share the first one's trees (module_rules.c's
# rule templates); read whole, each has its own.  Traps among them: the
# name inside a string or a comment, names that are prefixes of others,
# other variables, local values, `var` as a whole, var["NAME"], impure
# calls, rules that fail or error, types that differ.

RULE_NAMES = ["a", "ab", "ab_c", "ab-c", "abc", "name", "name2", "x_1",
              "very_long_variable_name", "v"]
RULE_SHAPES = [
    ('can(regex("^[a-z]+$", var.{v})) && length(var.{v}) <= 8',
     '"Lowercase, at most 8."'),
    ("length(var.{v}) > 3", '"Too short: ${{var.{v}}}."'),
    ("tonumber(var.{v}) > 0", '"Positive."'),
    ('var.{v} != "var.{v}"', '"Not its own name."'),
    ("var.{v} != var.{o}", '"Differs from {o}."'),
    ('contains(["abc", "x", "var.{v}"], var.{v})', '"One of three."'),
    ("var.{v} == null || length(var.{v}) >= 0", '"Anything."'),
    ("(\n      # var.{v} here\n      length(var.{v}) > 1\n    )",
     '"Longer than one."'),
    ('lookup(var, "{v}", null) != null', '"Set."'),
    ('var["{v}"] != ""', '"Not empty."'),
    ("local.l != var.{v}", '"Not the local."'),
    ("length(var.{v}) > 0 && length(var.{o}) >= 0", '"${{var.{o}}}"'),
    ('timestamp() != var.{v}', '"Not now."'),
    ("var.{v} > 0", '"Positive."'),
    ("var.{v}  ==  var.{v}", '"Equal."'),
    ('upper(var.{v}) == "ABC"', '"Is abc: ${{upper(var.{v})}}"'),
    # the bytes rule_extent passes over in runs, and the ones it stops at
    # (comments, heredoc and operator starts) after them
    ("length(var.{v}) < 4 # var.{v} is short", '"Short."'),
    ("length(var.{v}) / 2 >= 1 // var.{v}: half", '"Half."'),
    ("length(var.{v}) * 2 > 1 /* var.{v} */", '"Twice."'),
    ('!(var.{v} == "x") && var.{v} != "y"', '"Not x or y."'),
    ('length(var.{v}) % 2 == 0 ? true : var.{v} == "abc"', '"Even."'),
    ("var.{v}!=var.{o}||var.{v}=='x'", '"Odd one."'),
]
RULE_VALUES = ['"abc"', '"Upper"', '"toolongvalue1"', '"12"', '"-3"', '"x"',
               '""', "5", "0", '["x"]', "null", '"var.a"', '"var.ab"']


def gen_rules_module(rng):
    names = rng.sample(RULE_NAMES, rng.randint(2, len(RULE_NAMES)))
    shapes = rng.sample(RULE_SHAPES, rng.randint(1, 3))
    blocks, values = [], []
    for name in names:
        lines = ['variable "%s" {' % name]
        r = rng.random()
        if r < 0.7:
            lines.append("  type = string")
        elif r < 0.8:
            lines.append("  type = number")
        elif r < 0.9:
            lines.append("  type = list(string)")
        if rng.random() < 0.1:
            lines.append("  sensitive = true")
        for _ in range(rng.choice([1, 1, 1, 2])):
            cond, msg = rng.choice(shapes)
            other = rng.choice(names)
            lines.append("  validation {\n    condition     = %s\n"
                         "    error_message = %s\n  }"
                         % (cond.format(v=name, o=other),
                            msg.format(v=name, o=other)))
        lines.append("}")
        blocks.append("\n".join(lines))
        if rng.random() < 0.9:
            values.append("%s = %s" % (name, rng.choice(RULE_VALUES)))
    if rng.random() < 0.3:
        blocks.append('locals {\n  l = "abc"\n}')
    rng.shuffle(blocks)
    files = {}
    if rng.random() < 0.3:  # two files: templates cross them
        k = len(blocks) // 2
        files["a.tf"] = ("\n\n".join(blocks[:k]) + "\n").encode()
        files["b.tf"] = ("\n\n".join(blocks[k:]) + "\n").encode()
    else:
        files["variables.tf"] = ("\n\n".join(blocks) + "\n").encode()
    files["terraform.tfvars"] = ("\n".join(values) + "\n").encode()
    return files


def run_diff(prog, dirs, timeout=60):
    """(passed, failed, {dir: [lines]}, crashed, output) for one batch."""
    try:
        p = subprocess.run([prog] + dirs, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        rc = p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = "timed out after %d s" % timeout
        rc = -1
    lines = out.splitlines()
    m = SUMMARY_RE.match(lines[-1]) if lines else None
    if not m or rc not in (0, 1) or (rc == 1) != (int(m.group(2)) > 0):
        return None, out + err
    by_dir = {}
    ordered = sorted(dirs, key=len, reverse=True)
    current = None
    for line in lines[:-1]:
        if not line.startswith("  "):
            current = next((d for d in ordered if line.startswith(d + ": ")),
                           line)
        by_dir.setdefault(current, []).append(line)
    return (int(m.group(1)), int(m.group(2)), by_dir), out + err


def run_all(prog, dirs, jobs, batch):
    """passed, failed, {dir: report lines} over all dirs."""
    batches = [dirs[i:i + batch] for i in range(0, len(dirs), batch)]
    passed = failed = 0
    reports = {}

    def one(b):
        res, text = run_diff(prog, b)
        if res is not None:
            return [(res, text, b)]
        # A crash or a timeout: each directory on its own, to know which.
        out = []
        for d in b:
            r, t = run_diff(prog, [d])
            if r is None:
                r = (0, 1, {d: ["%s: fastpath_diff did not finish:" % d] +
                            ["  " + x for x in t.splitlines()[-40:]]})
            out.append((r, t, [d]))
        return out

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for results in ex.map(one, batches):
            for (p, f, by_dir), _, _ in results:
                passed += p
                failed += f
                for d, lines in by_dir.items():
                    reports.setdefault(d, []).extend(lines)
    return passed, failed, reports


def run_reported(prog, dirs, files, jobs, what):
    """Run dirs through prog; print each failing module's report and files
    (files: dir -> {name: bytes}; what(dir): how to find it again).
    Returns (passed, failed, reports)."""
    p, f, reports = run_all(prog, dirs, jobs, 25)
    for d in dirs:
        if d in reports:
            print("===== %s (%s)" % (d, what(d)))
            print("\n".join(reports[d]))
            for name in sorted(files[d]):
                show_file(name, files[d][name])
    return p, f, reports


def module_dirs(root):
    found = []
    for d, subdirs, files in os.walk(root):
        subdirs.sort()
        if any(f.endswith(".tf") or f.endswith(".tf.json") for f in files):
            found.append(d)
    return sorted(found)


def write_module(d, files):
    """The module directory d holding exactly files (name -> bytes)."""
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.unlink(os.path.join(d, old))
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(data)
    return d


def show_file(name, data):
    text = data.decode("utf-8", "backslashreplace")
    print("----- %s%s" % (name, " (CRLF)" if b"\r\n" in data else ""))
    if len(text) > 6000:
        text = text[:3000] + "\n[... %d characters ...]\n" % (
            len(text) - 6000) + text[-3000:]
    print(text.replace("\r\n", "\n"), end="" if text.endswith("\n") else "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fastpath_diff")
    ap.add_argument("fixtures")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--jobs", type=int,
                    default=max(1, min(4, os.cpu_count() or 1)))
    args = ap.parse_args()
    prog = os.path.abspath(args.fastpath_diff)
    start = time.monotonic()
    total_pass = total_fail = 0

    # 1. The fixtures.
    dirs = module_dirs(args.fixtures) if os.path.isdir(args.fixtures) else []
    if not dirs:
        print("fixtures: no module directories under %s" % args.fixtures)
        total_fail += 1
    else:
        p, f, reports = run_all(prog, dirs, args.jobs, 60)
        total_pass += p
        total_fail += f
        for d, lines in sorted(reports.items()):
            print("\n".join(lines))
        print("fixtures: %d modules, %d passed, %d failed" % (len(dirs), p, f))

    # 2. Generated modules.
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        tmp = None
        root = os.path.abspath(args.keep)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="fastpath-fuzz-")
        root = tmp.name
    try:
        modules = {}
        gen_dirs = []
        for i in range(args.count):
            rng = random.Random("%d/%d" % (args.seed, i))
            files = gen_module(rng, i % 200 == 7)  # two huge ones in 400
            d = write_module(os.path.join(root, "m%04d" % i), files)
            modules[d] = files
            gen_dirs.append(d)
        p, f, reports = run_all(prog, gen_dirs, args.jobs, 25)
        total_pass += p
        total_fail += f
        for d in gen_dirs:
            if d not in reports:
                continue
            print("===== %s (--seed %d, module %d)" % (
                d, args.seed, gen_dirs.index(d)))
            print("\n".join(reports[d]))
            for name in sorted(modules[d]):
                show_file(name, modules[d][name])
        stray = [k for k in reports if k not in modules]
        for k in stray:
            print("\n".join(reports[k]))
        print("generated (seed %d): %d modules, %d passed, %d failed, %.1f s"
              % (args.seed, len(gen_dirs), p, f, time.monotonic() - start))

        # 3. Fixture configuration files, mutated.
        sources = sorted(os.path.join(r, n)
                         for r, _, ns in os.walk(args.fixtures) for n in ns
                         if n.endswith(".tf") and
                         os.path.isfile(os.path.join(r, n)))  # not a loop
        mut_dirs, muts = [], {}
        for i in range(args.count if sources else 0):
            rng = random.Random("%d/tf/%d" % (args.seed, i))
            src = rng.choice(sources)
            with open(src, encoding="utf-8", errors="replace") as fh:
                text = mutate_tf(rng, fh.read())
            files = {"main.tf": text.encode()}
            if rng.random() < 0.3:
                files["b.tf"] = (b'variable "b" {\n  type = list(string)\n'
                                 b'  default = ["x"]\n}\n')
            d = write_module(os.path.join(root, "t%04d" % i), files)
            muts[d] = (src, files)
            mut_dirs.append(d)
        p, f, _ = run_reported(
            prog, mut_dirs, {d: m[1] for d, m in muts.items()}, args.jobs,
            lambda d: "--seed %d, from %s" % (args.seed, muts[d][0]))
        total_pass += p
        total_fail += f
        print("mutated .tf files (seed %d): %d modules, %d passed, "
              "%d failed" % (args.seed, len(mut_dirs), p, f))

        # 4. Repeated rules: trees shared or each rule's own.
        rule_dirs, rmods = [], {}
        for i in range(args.count // 2):
            rng = random.Random("%d/rules/%d" % (args.seed, i))
            files = gen_rules_module(rng)
            d = write_module(os.path.join(root, "r%04d" % i), files)
            rmods[d] = files
            rule_dirs.append(d)
        p, f, _ = run_reported(
            prog, rule_dirs, rmods, args.jobs,
            lambda d: "--seed %d, rules module %d"
            % (args.seed, rule_dirs.index(d)))
        total_pass += p
        total_fail += f
        print("repeated rules (seed %d): %d modules, %d passed, %d failed"
              % (args.seed, len(rule_dirs), p, f))
    finally:
        if tmp:
            tmp.cleanup()
    print("%d passed, %d failed" % (total_pass, total_fail))
    return 0 if total_fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
