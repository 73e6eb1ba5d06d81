"""The id registry (ids.json): every fixture id ever assigned, keyed by
kind, area and case key. Ids are derived from the case key, never from the
order of the tables: a case keeps its id across runs, a new case takes the
next number of its group, and a number is never given out twice (the
per-group counters only grow), so the id of a removed test is never reused."""

import json
import os

from common import IDS_JSON, dump_json


class Registry:
    def __init__(self, path=IDS_JSON):
        self.path = path
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        else:
            d = {}
        self.ids = d.get("ids", {})
        self.next = d.get("next", {})
        self.used = set()
        taken = {}
        for k, v in self.ids.items():
            if v in taken:
                raise ValueError("ids.json: id %s assigned twice (%s, %s)" % (v, taken[v], k))
            taken[v] = k

    @staticmethod
    def key(kind, area, case_key):
        return "%s|%s|%s" % (kind, area, case_key)

    def get(self, kind, area, case_key, group):
        k = self.key(kind, area, case_key)
        if k in self.used:
            raise ValueError("duplicate case key %s" % k)
        self.used.add(k)
        if k not in self.ids:
            n = self.next.get(group, 1)
            self.ids[k] = "%s.%04d" % (group, n)
            self.next[group] = n + 1
        return self.ids[k]

    def keep(self, fixture_id):
        """Marks the case of an id as used without giving out a number: the
        tests of fixture files another tool writes (generate.py's OWNED_ELSEWHERE)."""
        keys = [k for k, v in self.ids.items() if v == fixture_id]
        if not keys:
            raise ValueError("ids.json: %s is not registered (run the tool that writes its file)" % fixture_id)
        self.used.update(keys)

    def retired(self):
        return sorted(v for k, v in self.ids.items() if k not in self.used)

    def text(self):
        """The one text form of ids.json: keys sorted, `retired` the ids of
        the cases not used in this run."""
        return text(self.ids, self.next, self.retired())

    def save(self):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.text())


def text(ids, next_, retired):
    doc = {
        "comment": "Fixture ids (conformance/tools/ids.py). Never edit by hand; never reuse a number.",
        "next": dict(sorted(next_.items())),
        "ids": dict(sorted(ids.items())),
        "retired": sorted(retired),
    }
    return dump_json(doc)
