"""Golden tests of the CLI's output (libwire/tests/cli/run.py): every case's
stdout, stderr and exit status as recorded, and every error and hint
message of the CLI's own sources printed by some case.

Re-record after an intended change with
    python3 libwire/tests/cli/run.py --bless
and review the diff."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import run as golden  # noqa: E402


@pytest.mark.parametrize("name", golden.case_names())
def test_golden(wire, name):
    problems = golden.check(name, wire.path)
    assert not problems, "\n".join(problems) + "\n(re-record: python3 libwire/tests/cli/run.py --bless %s)" % name


def test_every_cli_message_has_a_golden_test():
    missing = golden.uncovered_messages()
    assert golden.tool_messages(), "the message scanner found nothing"
    assert not missing, "messages no golden case prints: %r" % missing


def test_golden_detects_a_change(wire, monkeypatch):
    """The comparison is real: one byte more in the recorded stdout, another
    exit status, and the case fails."""
    name = golden.case_names()[0]
    assert golden.check(name, wire.path) == []
    real = golden.expected

    def changed(n, what):
        e = real(n)
        if what == "stdout":
            e["stdout"] += b"x"
        else:
            e["exit"] += 1
        return e

    for what in ("stdout", "exit"):
        monkeypatch.setattr(golden, "expected", lambda n, w=what: changed(n, w))
        assert golden.check(name, wire.path), what
