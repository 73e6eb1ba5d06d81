#!/usr/bin/env python3
"""Traceability check between spec/ and the conformance fixtures.

Reads every rule of the specification and every fixture, and fails (exit
status 1) when:

  - a rule id (a line starting with **R-<AREA>-<n>**) is defined twice, or an
    errata item (### E-<n>) appears twice;
  - the spec text refers to a rule id that is not defined;
  - a fixture id is used twice;
  - a fixture lists no rules, or cites an id that does not exist (R-, E- or
    N- ids) or a withdrawn rule;
  - a normative rule (its text uses MUST, SHOULD, MAY or REQUIRED) is cited by
    no fixture;
  - an errata item has no fixture: no fixture cites its id and its
    "- Fixture: <id>, <id>" line names none (or names unknown fixtures);
  - a comment in libwire/src/*.c or *.h cites a rule or errata id that does
    not exist (source tags: a rule id written in a comment inside or just
    above a function marks that function as implementing the rule);
  - the FDL grammar of spec/fdl-grammar.md is not well formed or does not
    match a fixture schema (fdl_grammar.py).

It then writes spec/TRACE.md: for every rule and errata item, the source
functions that implement it and the fixtures that exercise it. The fixture lists are derived from the fixtures, never
kept by hand in the rule text.

A rule's text runs from its bold id to the next rule id or heading. A rule
whose first line says *(withdrawn)* is kept for its id but is neither
normative nor citable.

Fixture files are fixtures/valid/**/*.json and fixtures/invalid/**/*.json.
A file holds one test object, a list of them, or an object with a "tests"
list; each test has a string "id" and a list "rules" (a file-level "rules"
list, if any, applies to every test of the file).

Usage: spec_check.py [--root DIR] [--no-coverage] [--no-write] [--quiet]
"""

import argparse
import glob
import json
import os
import re
import sys

RULE_LINE = re.compile(r"^\*\*(R-[A-Z0-9]+-\d+)\*\*")
RULE_REF = re.compile(r"(?<![A-Za-z0-9-])(R-[A-Z0-9]+-\d+)(?![0-9])")
ERRATA_HEAD = re.compile(r"^###\s+(E-\d+)\b(.*)$")
NOTATION_HEAD = re.compile(r"^#+\s+(N-\d+(?:\.\d+)*)\b")
FIXTURE_LINE = re.compile(r"^\s*-\s*Fixtures?:\s*(.*)$")
NORMATIVE = re.compile(r"\b(MUST|SHOULD|MAY|REQUIRED)\b")
CODE_SPAN = re.compile(r"`[^`]*`")
CITABLE = re.compile(r"^(R-[A-Z0-9]+-\d+|E-\d+|N-\d+(?:\.\d+)*)$")

# Reading order of the chapters (also used by render_spec.py); other .md
# files in spec/ follow in name order, TRACE.md last.
CHAPTER_ORDER = [
    "README.md", "01-primitives.md", "02-values.md", "03-writer-policy.md",
    "04-errors-and-limits.md", "05-user-types.md", "06-fdl.md", "fdl-grammar.md", "grammar.md",
    "notation.md", "errata.md",
]
TRACE_NAME = "TRACE.md"


class Rule:
    def __init__(self, rid, path, line):
        self.id = rid
        self.path = path
        self.line = line
        self.text_lines = []
        self.withdrawn = False
        self.normative = False


class Erratum:
    def __init__(self, eid, title, path, line):
        self.id = eid
        self.title = title.strip()
        self.path = path
        self.line = line
        self.listed = []        # ids from "- Fixture:" lines
        self.listed_line = None


class Spec:
    def __init__(self):
        self.rules = {}         # id -> Rule, in definition order
        self.errata = {}        # id -> Erratum
        self.notation = set()   # N- ids
        self.refs = []          # (rule id, path, line) mentioned in text
        self.errors = []


def chapter_files(spec_dir):
    names = [n for n in os.listdir(spec_dir) if n.endswith(".md")]
    ordered = [n for n in CHAPTER_ORDER if n in names]
    rest = sorted(n for n in names if n not in CHAPTER_ORDER and n != TRACE_NAME)
    return [os.path.join(spec_dir, n) for n in ordered + rest]


def rel(path, root):
    return os.path.relpath(path, root)


def parse_spec(spec_dir, root):
    spec = Spec()
    for path in chapter_files(spec_dir):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        current = None      # Rule whose text is being collected
        erratum = None
        in_fence = False
        for no, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            heading = not in_fence and line.startswith("#")
            m = None if in_fence else RULE_LINE.match(line)
            if m or heading:
                current = None
            if heading:
                erratum = None
                e = ERRATA_HEAD.match(line)
                if e:
                    eid = e.group(1)
                    if eid in spec.errata:
                        o = spec.errata[eid]
                        spec.errors.append(
                            "%s:%d: errata item %s is defined twice (first at %s:%d)"
                            % (rel(path, root), no, eid, rel(o.path, root), o.line))
                    else:
                        erratum = Erratum(eid, e.group(2), path, no)
                        spec.errata[eid] = erratum
                n = NOTATION_HEAD.match(line)
                if n:
                    spec.notation.add(n.group(1))
            if m:
                rid = m.group(1)
                if rid in spec.rules:
                    o = spec.rules[rid]
                    spec.errors.append(
                        "%s:%d: rule %s is defined twice (first at %s:%d)"
                        % (rel(path, root), no, rid, rel(o.path, root), o.line))
                    current = None
                else:
                    current = Rule(rid, path, no)
                    current.withdrawn = "(withdrawn)" in line
                    spec.rules[rid] = current
            if current is not None:
                current.text_lines.append(line)
            if erratum is not None and not in_fence:
                fm = FIXTURE_LINE.match(line)
                if fm:
                    erratum.listed_line = no
                    value = fm.group(1).strip()
                    if value and not value.lower().startswith("pending"):
                        erratum.listed += [x.strip().strip("`") for x in value.split(",")
                                           if x.strip()]
            if not in_fence:
                text = line[len(m.group(0)):] if m else line
                for r in RULE_REF.finditer(text):
                    spec.refs.append((r.group(1), path, no))
    for r in spec.rules.values():
        body = CODE_SPAN.sub("", "\n".join(r.text_lines))
        r.normative = not r.withdrawn and NORMATIVE.search(body) is not None
    for rid, path, no in spec.refs:
        if rid not in spec.rules:
            spec.errors.append("%s:%d: the text refers to %s, which is not defined"
                               % (rel(path, root), no, rid))
    return spec


class Fixture:
    def __init__(self, fid, path, rules):
        self.id = fid
        self.path = path
        self.rules = rules


def tests_of(doc):
    """The test objects of one fixture file, with the file-level rules."""
    if isinstance(doc, list):
        return doc, []
    if isinstance(doc, dict):
        shared = doc.get("rules") if isinstance(doc.get("rules"), list) else []
        if isinstance(doc.get("tests"), list):
            return doc["tests"], shared
        if "id" in doc:
            return [doc], []
    return None, []


def parse_fixtures(fixtures_dir, root, errors):
    fixtures = {}
    files = []
    for sub in ("valid", "invalid"):
        files += sorted(glob.glob(os.path.join(fixtures_dir, sub, "**", "*.json"),
                                  recursive=True))
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            errors.append("%s: cannot read the fixture file: %s" % (rel(path, root), e))
            continue
        tests, shared = tests_of(doc)
        if tests is None:
            errors.append("%s: no tests found (expected a test object, a list of "
                          "them, or an object with a \"tests\" list)" % rel(path, root))
            continue
        for i, t in enumerate(tests):
            where = "%s: test #%d" % (rel(path, root), i)
            if not isinstance(t, dict) or not isinstance(t.get("id"), str) or not t["id"]:
                errors.append("%s has no string \"id\"" % where)
                continue
            fid = t["id"]
            rules = t.get("rules", [])
            if not isinstance(rules, list) or not all(isinstance(x, str) for x in rules):
                errors.append("%s (%s): \"rules\" must be a list of strings" % (where, fid))
                rules = []
            rules = list(dict.fromkeys(list(rules) + [x for x in shared if isinstance(x, str)]))
            if fid in fixtures:
                errors.append("%s: fixture id %s is already used in %s"
                              % (rel(path, root), fid, rel(fixtures[fid].path, root)))
                continue
            fixtures[fid] = Fixture(fid, path, rules)
    return fixtures, len(files)


def check(spec, fixtures, root, coverage):
    errors = list(spec.errors)
    warnings = []
    cited = {}   # id -> [fixture ids]
    for fx in fixtures.values():
        if not fx.rules:
            errors.append("%s: fixture %s lists no rules" % (rel(fx.path, root), fx.id))
        for rid in fx.rules:
            if not CITABLE.match(rid):
                errors.append("%s: fixture %s cites %r, which is not a rule id "
                              "(R-AREA-n, E-n or N-n)" % (rel(fx.path, root), fx.id, rid))
                continue
            if rid.startswith("R-"):
                r = spec.rules.get(rid)
                if r is None:
                    errors.append("%s: fixture %s cites %s, which does not exist"
                                  % (rel(fx.path, root), fx.id, rid))
                    continue
                if r.withdrawn:
                    errors.append("%s: fixture %s cites %s, which is withdrawn (%s:%d)"
                                  % (rel(fx.path, root), fx.id, rid, rel(r.path, root), r.line))
                    continue
            elif rid.startswith("E-") and rid not in spec.errata:
                errors.append("%s: fixture %s cites errata item %s, which does not exist"
                              % (rel(fx.path, root), fx.id, rid))
                continue
            elif rid.startswith("N-") and rid not in spec.notation:
                errors.append("%s: fixture %s cites notation section %s, which does not "
                              "exist" % (rel(fx.path, root), fx.id, rid))
                continue
            cited.setdefault(rid, []).append(fx.id)
    uncovered = []
    for r in spec.rules.values():
        if r.normative and not cited.get(r.id):
            uncovered.append("%s:%d: normative rule %s has no fixture"
                             % (rel(r.path, root), r.line, r.id))
    for e in spec.errata.values():
        for fid in e.listed:
            if fid not in fixtures:
                errors.append("%s:%d: errata item %s names fixture %s, which does not exist"
                              % (rel(e.path, root), e.listed_line, e.id, fid))
        have = set(cited.get(e.id, [])) | {f for f in e.listed if f in fixtures}
        if not have:
            uncovered.append("%s:%d: errata item %s has no fixture (cite it in a "
                             "fixture's \"rules\" or list one in \"- Fixture:\")"
                             % (rel(e.path, root), e.line, e.id))
    if coverage:
        errors += uncovered
    else:
        warnings += uncovered
    return errors, warnings, cited


def trace_table(spec, fixtures, cited, root):
    """The fixtures of every rule and errata item: {id: [fixture ids]}."""
    out = {}
    for r in spec.rules.values():
        out[r.id] = sorted(cited.get(r.id, []))
    for e in spec.errata.values():
        out[e.id] = sorted(set(cited.get(e.id, [])) |
                           {f for f in e.listed if f in fixtures})
    return out


SRC_GLOBS = ("libwire/src/*.c", "libwire/src/*.h")
# A function definition: at column 0, a return type and a name, then "(".
FUNC_DEF = re.compile(r"^(?:static\s+|inline\s+)*[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;]*$")
SRC_REF = re.compile(r"(?<![A-Za-z0-9-])(R-[A-Z0-9]+-\d+|E-\d+)(?![0-9])")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def source_tags(root):
    """Rule and errata ids cited in the comments of libwire/src, each with the
    function it tags: the function whose body holds the comment, or the one
    defined right below it (at most one line between them); else the file."""
    tags = {}
    for pattern in SRC_GLOBS:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            lines = text.split("\n")
            # function definitions: (first line, name, last line)
            funcs = []
            for i, line in enumerate(lines):
                m = FUNC_DEF.match(line)
                if not m or line.startswith(("typedef", "return", "if ", "else")):
                    continue
                j = i
                while j < len(lines) and "{" not in lines[j] and ";" not in lines[j]:
                    j += 1
                if j >= len(lines) or ";" in lines[j].split("{")[0]:
                    continue
                k = j
                while k < len(lines) and lines[k] != "}":
                    k += 1
                funcs.append((i, m.group(1), k))
            for c in COMMENT.finditer(text):
                line_no = text.count("\n", 0, c.start())
                end_no = text.count("\n", 0, c.end())
                where = None
                for first, name, last in funcs:
                    if first <= line_no <= last:
                        where = name
                        break
                    if first > line_no:
                        if first - end_no <= 2 and not c.group(0).startswith("/* ----"):
                            where = name  # not a section heading
                        break
                ids = SRC_REF.findall(c.group(0))
                # ranges: R-FORDER-1..3
                for area, lo, hi in re.findall(r"R-([A-Z0-9]+)-(\d+)\.\.(\d+)", c.group(0)):
                    ids += ["R-%s-%d" % (area, n) for n in range(int(lo) + 1, int(hi) + 1)]
                for rid in ids:
                    loc = "%s:%s" % (os.path.basename(rel), where) if where else os.path.basename(rel)
                    tags.setdefault(rid, [])
                    if loc not in tags[rid]:
                        tags[rid].append(loc)
    return tags


def write_trace(out_path, spec, fixtures, table, root, nfiles, tags, unpinned=None):
    by_file = {}
    for r in spec.rules.values():
        by_file.setdefault(r.path, []).append(r)
    lines = [
        "# Traceability",
        "",
        "Generated by `conformance/tools/spec_check.py` from the rule ids in",
        "`spec/*.md`, the comments of `libwire/src/` that cite them (source: file and",
        "function) and the `\"rules\"` lists of the fixtures in `fixtures/valid/`",
        "and `fixtures/invalid/`. Do not edit: run `make spec-check`.",
        "",
        "%d rules (%d normative, %d withdrawn, %d with a source), %d errata items, %d fixtures in %d files."
        % (len(spec.rules), sum(r.normative for r in spec.rules.values()),
           sum(r.withdrawn for r in spec.rules.values()),
           sum(1 for r in spec.rules if r in tags), len(spec.errata),
           len(fixtures), nfiles),
        "",
        "Kind: **N** normative, *i* informative (no MUST/SHOULD/MAY), *w* withdrawn.",
        "",
    ]
    for path in chapter_files(os.path.dirname(out_path)):
        rules = by_file.get(path)
        if not rules:
            continue
        lines += ["## %s" % os.path.basename(path), "",
                  "| rule | kind | source | fixtures |", "|---|---|---|---|"]
        for r in rules:
            kind = "*w*" if r.withdrawn else "**N**" if r.normative else "*i*"
            src = ", ".join("`%s`" % t for t in tags.get(r.id, [])) or "—"
            fx = ", ".join("`%s`" % f for f in table[r.id]) or "—"
            lines.append("| %s | %s | %s | %s |" % (r.id, kind, src, fx))
        lines.append("")
    if spec.errata:
        lines += ["## errata.md", "", "| item | source | fixtures |", "|---|---|---|"]
        for e in spec.errata.values():
            src = ", ".join("`%s`" % t for t in tags.get(e.id, [])) or "—"
            fx = ", ".join("`%s`" % f for f in table[e.id]) or "—"
            lines.append("| %s %s | %s | %s |" % (e.id, e.title.replace("|", "\\|"), src, fx))
        lines.append("")
    if unpinned:
        lines += ["## Normative rules no mutant pins", "",
                  "Every other normative rule has a recorded wrong choice that its fixtures kill",
                  "(conformance/mutants/mutants.json, `make mutants`). These have none, for the",
                  "reason given:", "", "| rule | why |", "|---|---|"]
        for rid in sorted(unpinned):
            lines.append("| %s | %s |" % (rid, unpinned[rid].replace("|", "\\|")))
        lines.append("")
    text = "\n".join(lines)
    old = None
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(text)
        return True
    return False


def load(root):
    """Parses the spec and the fixtures; used by render_spec.py too."""
    spec = parse_spec(os.path.join(root, "spec"), root)
    errors = []
    fixtures, nfiles = parse_fixtures(os.path.join(root, "fixtures"), root, errors)
    spec.errors += errors
    return spec, fixtures, nfiles


def pinned_rules(root, spec, fixtures, errors):
    """Rule ids with a recorded wrong choice in conformance/mutants/mutants.json
    (a mutant and the fixtures that kill it; `make mutants` runs them). A
    mutant naming an unknown rule or fixture is an error."""
    path = os.path.join(root, "conformance", "mutants", "mutants.json")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = set()
    for m in doc.get("mutants", []):
        for rid in m.get("rules", []):
            if rid.startswith("R-") and rid not in spec.rules:
                errors.append("conformance/mutants/mutants.json: mutant %s names rule %s, which does not exist"
                              % (m.get("name"), rid))
            out.add(rid)
        for fid in m.get("kills", []):
            if fid not in fixtures:
                errors.append("conformance/mutants/mutants.json: mutant %s names fixture %s, which does not "
                              "exist" % (m.get("name"), fid))
        if not m.get("kills"):
            errors.append("conformance/mutants/mutants.json: mutant %s has no killing fixture" % m.get("name"))
    return out


def unpinned_rules(root, spec, pinned, errors):
    """The normative rules no mutant pins, each with the reason mutants.json
    ("unpinned") gives; a normative rule with neither is an error, and so is
    a reason for a rule that a mutant pins."""
    path = os.path.join(root, "conformance", "mutants", "mutants.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    why = {u.get("rule"): u.get("why", "") for u in doc.get("unpinned", [])}
    for rid in why:
        if rid not in spec.rules:
            errors.append("conformance/mutants/mutants.json: unpinned rule %s does not exist" % rid)
        elif rid in pinned:
            errors.append("conformance/mutants/mutants.json: %s is pinned by a mutant but listed as unpinned" % rid)
    for r in spec.rules.values():
        if r.normative and r.id not in pinned and not why.get(r.id):
            errors.append("%s: normative rule without a mutant and without a reason in "
                          "conformance/mutants/mutants.json \"unpinned\"" % r.id)
    return why


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.abspath(
        os.path.join(os.path.dirname(__file__), "..", "..")),
        help="repository root (default: two levels above this script)")
    ap.add_argument("--no-coverage", action="store_true",
                    help="report rules and errata without fixtures as warnings, not errors")
    ap.add_argument("--no-write", action="store_true", help="do not write spec/TRACE.md")
    ap.add_argument("--quiet", action="store_true", help="print only the summary line")
    args = ap.parse_args(argv)
    root = args.root
    spec, fixtures, nfiles = load(root)
    errors, warnings, cited = check(spec, fixtures, root, not args.no_coverage)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fdl_grammar
    errors += fdl_grammar.check(root)  # spec/fdl-grammar.md: well formed, matches the schemas
    pinned = pinned_rules(root, spec, fixtures, errors)
    unpinned = unpinned_rules(root, spec, pinned, errors)
    table = trace_table(spec, fixtures, cited, root)
    tags = source_tags(root)
    for rid in sorted(tags):
        if rid not in spec.rules and rid not in spec.errata:
            errors.append("%s cites %s, which is not defined" % (", ".join(tags[rid]), rid))
        elif rid in spec.rules and spec.rules[rid].withdrawn:
            errors.append("%s cites the withdrawn rule %s" % (", ".join(tags[rid]), rid))
    if not args.no_write:
        write_trace(os.path.join(root, "spec", TRACE_NAME), spec, fixtures, table, root, nfiles, tags,
                    {k: v for k, v in unpinned.items() if k not in pinned})
    if not args.quiet:
        for e in errors:
            print("spec-check: error: %s" % e)
        for w in warnings:
            print("spec-check: warning: %s" % w)
        if unpinned:
            print("spec-check: normative rules no mutant pins (reasons in conformance/mutants/mutants.json): %s"
                  % ", ".join(sorted(unpinned)))
    normative = [r for r in spec.rules.values() if r.normative]
    covered = sum(1 for r in normative if table[r.id])
    ecovered = sum(1 for e in spec.errata.values() if table[e.id])
    print("spec-check: %d rules (%d normative, %d covered, %d with a source, %d pinned by a "
          "mutant, %d not pinned with the reason given), %d errata items (%d covered), %d fixtures "
          "in %d files: %d error(s), %d warning(s)"
          % (len(spec.rules), len(normative), covered, sum(1 for r in spec.rules if r in tags),
             sum(1 for r in normative if r.id in pinned), sum(1 for r in normative if r.id in unpinned),
             len(spec.errata), ecovered, len(fixtures), nfiles, len(errors), len(warnings)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
