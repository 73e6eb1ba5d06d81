"""Issue 11 acceptance: user models written by pyfory 1.7.7, Fory Java
1.6.0 and Fory Go 1.6.1 (libwire/tests/exact), in compatible and
same-schema mode, each read by the wire CLI

  - without a schema (compatible mode): decode | encode gives the bytes back,
  - with the runtime user's FDL (fixtures/schemas/exact/): decode |
    encode gives the bytes back,
  - fresh: the decoded values without their recorded wire choices, written
    by libwire, read back by the runtime that wrote them (equal objects,
    shared objects still shared),
  - plain: decode --plain | encode --plain read back by the same runtime,
  - project (evo, camel): the v1 payload read with fixtures/schemas/exact/v2.fdl shows
    v2's fields; a writer's field v2 lacks is a warning (--strict: error),

always with --peer RUNTIME (spec R-PEER-1). The runtimes are really run."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "exact"))
import harness  # noqa: E402

_RESULTS = {}


def results(wire, runtime):
    if runtime not in _RESULTS:
        _RESULTS[runtime] = harness.run_all(harness.Wire(wire.path), [runtime])
    return _RESULTS[runtime]


def cases():
    for rt in harness.RUNTIMES:
        for model in harness.models(rt):
            for mode in harness.modes(model):
                for check in harness.checks(model):
                    if check == "no-schema" and mode == "same":
                        continue
                    if check == "project" and (mode == "same" or model not in harness.PROJECTED):
                        continue
                    yield pytest.param(rt, "%s.%s" % (model, mode), check,
                                       id="%s-%s.%s-%s" % (rt, model, mode, check))


@pytest.mark.parametrize("runtime,key,check", list(cases()))
def test_exact(wire, runtime, key, check):
    res = results(wire, runtime)
    assert (runtime, key, check) in res, "no result: the writer wrote no %s payload" % key
    assert res[(runtime, key, check)] == "ok", res[(runtime, key, check)]


@pytest.mark.parametrize("runtime", harness.RUNTIMES)
def test_every_payload_is_checked(wire, runtime):
    """The writer wrote exactly the expected models (none silently missing)."""
    keys = {k for (rt, k, _c) in results(wire, runtime) if rt == runtime}
    assert keys == {"%s.%s" % (m, mode) for m in harness.models(runtime)
                    for mode in harness.modes(m)}
