#!/usr/bin/env python3
"""Checks the FDL grammar of spec/fdl-grammar.md (called by spec_check.py):

  * the ABNF is well formed: every rule used is defined (or an RFC 5234
    core rule) and every rule defined is used, starting from `fdl-file`;
  * every fixture schema under fixtures/schemas/ outside `broken/`
    directories matches `fdl-file`;
  * every invalid fixture that cites R-FDLG-1 (a syntax error) names a
    schema that does not match: the file or one it imports fails
    `fdl-file`, so the grammar rejects what the fixture says is no FDL.

The matcher runs the ABNF itself: every element yields every position where
it can end (memoized per rule and position), so the grammar is read as
written, without a hand-written parser beside it.  Rules of the "F.2" block
are token level: white space (the `ws` rule) may come before each of their
elements and after a file, and a quoted word there matches only a whole
word.  Quoted strings are case-sensitive (FDL keywords are).  `ident`
excludes the keywords R-FDLG-2 lists.

    fdl_grammar.py [--root DIR]     exit 1 on an error
"""

import glob
import os
import re
import sys

CORE = {
    "ALPHA": [(0x41, 0x5A), (0x61, 0x7A)], "DIGIT": [(0x30, 0x39)], "CR": [(0x0D, 0x0D)],
    "LF": [(0x0A, 0x0A)], "HTAB": [(0x09, 0x09)], "SP": [(0x20, 0x20)], "DQUOTE": [(0x22, 0x22)],
    "VCHAR": [(0x21, 0x7E)], "OCTET": [(0x00, 0xFF)],
}
IDENT_CHARS = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


# -- ABNF text -> rules ---------------------------------------------------------

def abnf_blocks(text):
    """[(heading, block text)] of the ```abnf blocks, with the last ## heading."""
    out, heading = [], ""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("## "):
            heading = lines[i][3:].strip()
        if lines[i].strip() == "```abnf":
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            out.append((heading, "\n".join(lines[i + 1:j])))
            i = j
        i += 1
    return out


def strip_comment(line):
    out, q = [], False
    for c in line:
        if c == '"':
            q = not q
        if c == ";" and not q:
            break
        out.append(c)
    return "".join(out).rstrip()


def rule_texts(block):
    """{name: definition text} of one block (continuation lines start with space)."""
    rules, order, cur = {}, [], None
    for raw in block.split("\n"):
        line = strip_comment(raw)
        if not line.strip():
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9-]*)\s*=(/?)\s*(.*)$", line)
        if m and not raw[0].isspace():
            cur = m.group(1)
            if m.group(2):
                rules[cur] += " / " + m.group(3)
            else:
                if cur in rules:
                    raise ValueError("rule %s defined twice" % cur)
                rules[cur] = m.group(3)
                order.append(cur)
        elif cur is not None and raw[0].isspace():
            rules[cur] += " " + line.strip()
        else:
            raise ValueError("cannot read ABNF line %r" % raw)
    return rules, order


TOKEN = re.compile(r'\s*(?:(?P<str>"[^"]*")|(?P<num>%x[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+|(?:\.[0-9A-Fa-f]+)+)?)'
                   r'|(?P<rep>\d*\*\d*|\d+)|(?P<name>[A-Za-z][A-Za-z0-9-]*)|(?P<p>[/()\[\]]))')


def tokenize(text):
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("cannot read ABNF at %r" % text[pos:pos + 20])
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class P:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def next(self):
        tok = self.peek()
        self.i += 1
        return tok


def parse_alt(p):
    alts = [parse_cat(p)]
    while p.peek() == ("p", "/"):
        p.next()
        alts.append(parse_cat(p))
    return ("alt", alts) if len(alts) > 1 else alts[0]


def parse_cat(p):
    items = []
    while True:
        k, v = p.peek()
        if k is None or (k == "p" and v in "/)]"):
            break
        items.append(parse_rep(p))
    if not items:
        raise ValueError("empty concatenation")
    return ("cat", items) if len(items) > 1 else items[0]


def parse_rep(p):
    k, v = p.peek()
    lo, hi = 1, 1
    if k == "rep":
        p.next()
        if "*" in v:
            a, b = v.split("*")
            lo, hi = int(a or 0), int(b) if b else None
        else:
            lo = hi = int(v)
    el = parse_elem(p)
    return el if (lo, hi) == (1, 1) else ("rep", lo, hi, el)


def parse_elem(p):
    k, v = p.next()
    if k == "name":
        return ("ref", v)
    if k == "str":
        return ("lit", v[1:-1].encode())
    if k == "num":
        body = v[2:]
        if "-" in body:
            a, b = body.split("-")
            return ("range", int(a, 16), int(b, 16))
        if "." in body:
            return ("lit", bytes(int(x, 16) for x in body.split(".")))
        return ("range", int(body, 16), int(body, 16))
    if (k, v) == ("p", "("):
        e = parse_alt(p)
        if p.next() != ("p", ")"):
            raise ValueError("missing )")
        return e
    if (k, v) == ("p", "["):
        e = parse_alt(p)
        if p.next() != ("p", "]"):
            raise ValueError("missing ]")
        return ("rep", 0, 1, e)
    raise ValueError("unexpected %r" % (v,))


def refs_of(e, out):
    tag = e[0]
    if tag == "ref":
        out.add(e[1])
    elif tag in ("alt", "cat"):
        for x in e[1]:
            refs_of(x, out)
    elif tag == "rep":
        refs_of(e[3], out)
    return out


class Grammar:
    def __init__(self, spec_text):
        self.rules, self.token_level, self.order = {}, set(), []
        for heading, block in abnf_blocks(spec_text):
            texts, order = rule_texts(block)
            for name in order:
                if name in self.rules:
                    raise ValueError("rule %s defined twice" % name)
                self.rules[name] = parse_alt(P(tokenize(texts[name])))
                self.order.append(name)
                if heading.startswith("F.2"):
                    self.token_level.add(name)
        m = re.search(r"The words `([^`]*)` are keywords", spec_text)
        self.keywords = set(m.group(1).split()) if m else set()

    def problems(self, start="fdl-file"):
        out = []
        used = {start, "ws"}  # ws: implied between the tokens of F.2
        for name, e in self.rules.items():
            for r in refs_of(e, set()):
                used.add(r)
                if r not in self.rules and r not in CORE:
                    out.append("rule %s uses %s, which is not defined" % (name, r))
        for name in self.order:
            if name not in used:
                out.append("rule %s is defined but never used" % name)
        if start not in self.rules:
            out.append("no rule %s" % start)
        return out

    # -- matching -------------------------------------------------------------
    def match_file(self, data):
        self.data, self.memo = data, {}
        ends = self.rule("fdl-file", 0)
        return any(self.skip_ws(e) == len(data) for e in ends)

    def skip_ws(self, pos):
        ends = self.rule("ws", pos)
        return max(ends) if ends else pos

    def rule(self, name, pos):
        key = (name, pos)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = frozenset()  # left recursion guard
        if name in CORE:
            c = self.data[pos] if pos < len(self.data) else None
            res = frozenset({pos + 1}) if c is not None and any(a <= c <= b for a, b in CORE[name]) else frozenset()
        else:
            res = frozenset(self.el(self.rules[name], pos, name in self.token_level))
            if name == "ident":
                res = frozenset(e for e in res if self.data[pos:e].decode() not in self.keywords)
        self.memo[key] = res
        return res

    def el(self, e, pos, tok):
        tag = e[0]
        if tok:
            pos = self.skip_ws(pos)
        if tag == "ref":
            return self.rule(e[1], pos)
        if tag == "lit":
            s = e[1]
            if self.data[pos:pos + len(s)] != s:
                return set()
            end = pos + len(s)
            if tok and s[-1] in IDENT_CHARS and end < len(self.data) and self.data[end] in IDENT_CHARS:
                return set()
            return {end}
        if tag == "range":
            c = self.data[pos] if pos < len(self.data) else None
            return {pos + 1} if c is not None and e[1] <= c <= e[2] else set()
        if tag == "alt":
            out = set()
            for x in e[1]:
                out |= self.el(x, pos, tok)
            return out
        if tag == "cat":
            cur = {pos}
            for x in e[1]:
                nxt = set()
                for p in cur:
                    nxt |= self.el(x, p, tok)
                cur = nxt
                if not cur:
                    break
            return cur
        if tag == "rep":
            _, lo, hi, x = e
            out = {pos} if lo == 0 else set()
            cur, n = {pos}, 0
            seen = set()
            while cur and (hi is None or n < hi):
                nxt = set()
                for p in cur:
                    nxt |= self.el(x, p, tok)
                n += 1
                nxt -= seen if n > lo else set()
                if n >= lo:
                    out |= nxt
                seen |= nxt
                cur = nxt
            return out
        raise ValueError(tag)


def check(root):
    """Error strings; empty when the grammar is well formed and matches."""
    path = os.path.join(root, "spec", "fdl-grammar.md")
    try:
        g = Grammar(open(path, encoding="utf-8").read())
    except (OSError, ValueError) as exc:
        return ["spec/fdl-grammar.md: %s" % exc]
    errors = ["spec/fdl-grammar.md: %s" % p for p in g.problems()]
    if errors:
        return errors
    schemas = sorted(glob.glob(os.path.join(root, "fixtures", "schemas", "**", "*.fdl"), recursive=True))
    for p in schemas:
        if "/broken/" in p.replace(os.sep, "/"):
            continue
        if not g.match_file(open(p, "rb").read()):
            errors.append("%s: does not match fdl-file of spec/fdl-grammar.md" % os.path.relpath(p, root))
    for tid, schema in syntax_error_fixtures(root):
        if all(g.match_file(open(f, "rb").read()) for f in closure(schema)):
            errors.append("%s: %s has a syntax error (R-FDLG-1) but it and its imports match fdl-file of "
                          "spec/fdl-grammar.md" % (tid, os.path.relpath(schema, root)))
    return errors


def syntax_error_fixtures(root):
    """(test id, schema path) of the invalid fixtures that cite R-FDLG-1."""
    import json
    out = []
    for path in sorted(glob.glob(os.path.join(root, "fixtures", "invalid", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for t in doc.get("tests", []):
            if "R-FDLG-1" in (t.get("rules") or []):
                for s in t.get("schemas") or []:
                    out.append((t.get("id"), os.path.join(root, s)))
    return out


def closure(path):
    """A schema file and the files it imports (relative to the importer)."""
    seen, todo = [], [os.path.normpath(path)]
    while todo:
        p = todo.pop()
        if p in seen or not os.path.exists(p):
            continue
        seen.append(p)
        text = open(p, encoding="utf-8", errors="replace").read()
        todo += [os.path.normpath(os.path.join(os.path.dirname(p), m))
                 for m in re.findall(r'^\s*import\s+"([^"]+)"\s*;', text, re.M)]
    return seen


def main(argv):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if "--root" in argv:
        root = argv[argv.index("--root") + 1]
    errors = check(root)
    for e in errors:
        print("fdl-grammar: error: %s" % e)
    n = len([p for p in glob.glob(os.path.join(root, "fixtures", "schemas", "**", "*.fdl"), recursive=True)
             if "/broken/" not in p])
    print("fdl-grammar: %d fixture schemas checked, %d syntax-error fixtures rejected: %d error(s)"
          % (n, len(syntax_error_fixtures(root)), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
