#!/usr/bin/env python3
"""Renders spec/*.md into one HTML page with pandoc.

The chapters are joined in reading order (spec_check.CHAPTER_ORDER, then
TRACE.md). Before pandoc sees them:

  - every rule line **R-AREA-n** gets an anchor <a id="R-AREA-n">, every
    errata heading ### E-n the id E-n, every notation heading N-n the id N-n;
  - every other mention of a rule, errata or notation id outside code blocks
    becomes a link to its anchor;
  - after the text of each rule and errata item, a line lists the fixtures
    that exercise it, derived from the fixtures by spec_check.py (never kept
    in the rule text).

Usage: render_spec.py [--root DIR] [--out FILE] [--pandoc PROG]
Default output: build/spec/index.html. Needs pandoc (Debian package pandoc).
"""

import argparse
import html
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_check  # noqa: E402

ID_REF = re.compile(r"(?<![A-Za-z0-9#-])(R-[A-Z0-9]+-\d+|E-\d+|N-\d+(?:\.\d+)*)(?![0-9A-Za-z])")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")

CSS = """
body { max-width: 62em; margin: 0 auto; padding: 1em 2em; font-family: sans-serif;
       line-height: 1.45; }
code, pre { font-family: monospace; font-size: 0.92em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }
a.rule-anchor { scroll-margin-top: 1em; }
p.trace { font-size: 0.85em; color: #555; margin-top: -0.3em; }
p.trace.missing { color: #a33; }
nav#TOC { border-bottom: 1px solid #ccc; margin-bottom: 2em; }
"""


def link_ids(text, known):
    """Turns the ids in one line (outside code spans) into links."""
    out = []
    pos = 0
    for m in CODE_SPAN.finditer(text):
        out.append(_link_plain(text[pos:m.start()], known))
        inner = m.group(2).strip()
        if inner in known:
            out.append("[`%s`](#%s)" % (inner, inner))
        else:
            out.append(m.group(0))
        pos = m.end()
    out.append(_link_plain(text[pos:], known))
    return "".join(out)


def _link_plain(text, known):
    def repl(m):
        rid = m.group(1)
        if rid not in known:
            return rid
        # leave ids that are already the text of a markdown link alone
        return "[%s](#%s)" % (rid, rid)
    return ID_REF.sub(repl, text)


def trace_line(ids):
    if ids:
        items = ", ".join("`%s`" % html.escape(f) for f in ids)
        return '<p class="trace">Fixtures: %s</p>' % _md_inline(items)
    return '<p class="trace missing">Fixtures: none yet</p>'


def _md_inline(s):
    # the trace line is raw HTML, so render the backticked ids ourselves
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", s)


def preprocess(path, spec, table, known):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    in_fence = False
    pending = None          # id whose fixture line is due before the next rule/heading

    def flush():
        nonlocal pending
        if pending is not None:
            if out and out[-1].strip():
                out.append("")
            out.append(trace_line(table.get(pending, [])))
            out.append("")
            pending = None

    for line in lines:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence:
            out.append(line)
            continue
        rule = spec_check.RULE_LINE.match(line)
        if line.startswith("#"):
            flush()
            e = spec_check.ERRATA_HEAD.match(line)
            n = spec_check.NOTATION_HEAD.match(line)
            if e and e.group(1) in spec.errata:
                out.append("%s {#%s}" % (line.rstrip(), e.group(1)))
                pending = e.group(1)
            elif n:
                out.append("%s {#%s}" % (line.rstrip(), n.group(1)))
            else:
                out.append(line)
            continue
        if rule:
            flush()
            rid = rule.group(1)
            rest = line[len(rule.group(0)):]
            out.append('<a class="rule-anchor" id="%s"></a>**[%s](#%s)**%s'
                       % (rid, rid, rid, link_ids(rest, known)))
            if rid in spec.rules and spec.rules[rid].normative:
                pending = rid
            elif rid in spec.rules and not spec.rules[rid].withdrawn and table.get(rid):
                pending = rid
            continue
        out.append(link_ids(line, known))
    flush()
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.abspath(
        os.path.join(os.path.dirname(__file__), "..", "..")))
    ap.add_argument("--out", default=None, help="output HTML (default build/spec/index.html)")
    ap.add_argument("--pandoc", default="pandoc")
    args = ap.parse_args(argv)
    root = args.root
    out = args.out or os.path.join(root, "build", "spec", "index.html")
    if not shutil.which(args.pandoc):
        sys.stderr.write("render_spec: pandoc not found (Debian: apt-get install pandoc)\n")
        return 2
    spec, fixtures, nfiles = spec_check.load(root)
    _, _, cited = spec_check.check(spec, fixtures, root, coverage=False)
    table = spec_check.trace_table(spec, fixtures, cited, root)
    known = set(spec.rules) | set(spec.errata) | set(spec.notation)
    spec_dir = os.path.join(root, "spec")
    files = spec_check.chapter_files(spec_dir)
    trace = os.path.join(spec_dir, spec_check.TRACE_NAME)
    if os.path.exists(trace):
        files.append(trace)
    parts = [preprocess(p, spec, table, known) for p in files]
    source = "\n\n".join(parts) + "\n"
    os.makedirs(os.path.dirname(out), exist_ok=True)
    css_path = os.path.join(os.path.dirname(out), "spec.css")
    with open(css_path, "w", encoding="utf-8") as f:
        f.write(CSS)
    cmd = [args.pandoc, "--from", "markdown-smart-superscript-subscript",
           "--to", "html5", "--standalone", "--toc", "--toc-depth", "3",
           "--section-divs", "--css", "spec.css",
           "--metadata", "title=libwire: the Fory xlang format",
           "--metadata", "lang=en", "-o", out]
    r = subprocess.run(cmd, input=source, text=True, capture_output=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        return r.returncode
    if r.stderr.strip():
        sys.stderr.write(r.stderr)
    print("render_spec: wrote %s (%d chapters, %d rules, %d errata items)"
          % (os.path.relpath(out, root), len(files), len(spec.rules), len(spec.errata)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
