#!/usr/bin/env python3
"""The cross-runtime tables of conformance/RESULTS.md, from the
`wire conform --results-json` files of one results.sh run:

  * per area, each runtime's passed / claimed (tests it ran) and total;
  * robustness: per runtime and error class, the invalid inputs it
    accepted (decoded without error) out of those it ran.

    results_tables.py NAME=TITLE=FILE.json ...   (in table order)
"""

import json
import sys


def main(argv):
    runs = []
    for arg in argv:
        name, title, path = arg.split("=", 2)
        try:
            with open(path, encoding="utf-8") as f:
                runs.append((title, json.load(f)))
        except (OSError, ValueError):
            runs.append((title, None))
    areas = []
    for _, doc in runs:
        for a in (doc or {}).get("areas", {}):
            if a != "total" and a not in areas:
                areas.append(a)
    areas.sort(key=lambda a: (not a.startswith("valid/"), a))
    out = ["## Every runtime on every area", "",
           "Passed / run (run = total - not claimed). A runtime that claims an area's "
           "capabilities runs its tests; *n.c.* = none claimed.", ""]
    out.append("| area | total | " + " | ".join(t for t, _ in runs) + " |")
    out.append("|---|---:|" + "---:|" * len(runs))
    for a in areas + ["total"]:
        total = next((d["areas"][a]["total"] for _, d in runs if d and a in d["areas"]), 0)
        cells = []
        for _, d in runs:
            c = (d or {}).get("areas", {}).get(a)
            if not c:
                cells.append("not run")
                continue
            ran = c["total"] - c["not_claimed"]
            cells.append("n.c." if not ran else "%d / %d" % (c["passed"], ran))
        label = "**total**" if a == "total" else a
        out.append("| %s | %d | %s |" % (label, total, " | ".join(cells)))
    out += ["", "## Robustness: invalid inputs accepted", "",
            "Per error class (spec/04-errors-and-limits.md), the invalid fixtures a runtime "
            "decoded without any error, of those it ran. A decoder that accepts them returns "
            "values from bytes the format forbids.", ""]
    classes = sorted({c for _, d in runs if d for c in d.get("invalid_run", {})})
    out.append("| class | " + " | ".join(t for t, _ in runs) + " |")
    out.append("|---|" + "---:|" * len(runs))
    for c in classes + ["total"]:
        cells = []
        for _, d in runs:
            if not d:
                cells.append("not run")
                continue
            if c == "total":
                ran = sum(d.get("invalid_run", {}).values())
                acc = sum(len(v) for v in d.get("accepted_invalid", {}).values())
            else:
                ran = d.get("invalid_run", {}).get(c, 0)
                acc = len(d.get("accepted_invalid", {}).get(c, []))
            cells.append("-" if not ran else "%d of %d" % (acc, ran))
        out.append("| %s | %s |" % ("**total**" if c == "total" else c, " | ".join(cells)))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
