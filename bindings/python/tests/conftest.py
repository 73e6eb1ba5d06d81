import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)                       # bindings/python
REPO = os.path.normpath(os.path.join(PKG, "..", ".."))
# The package under test: bindings/python itself (the extension built in
# place: `make python-ext`), or another copy of it (LIBWIRE_PKG_DIR: the
# sanitizer build of `make python-sanitize`).
sys.path.insert(0, PKG)
if os.environ.get("LIBWIRE_PKG_DIR"):
    sys.path.insert(0, os.environ["LIBWIRE_PKG_DIR"])

import pytest  # noqa: E402

SCHEMAS = os.path.join(REPO, "fixtures", "schemas", "xlang")
CORPUS = os.path.join(REPO, "fixtures", "xlang-corpus")
WIRE_CLI = os.path.join(REPO, "build", "bin", "wire")


def schema(name):
    return os.path.join(SCHEMAS, name + ".fdl")


def corpus(name):
    import json
    with open(os.path.join(CORPUS, name + ".json")) as f:
        return json.load(f)


@pytest.fixture
def fory():
    pyfory = pytest.importorskip("pyfory")
    return pyfory.Fory(xlang=True, ref=False, compatible=False)


@pytest.fixture
def fory_ref():
    pyfory = pytest.importorskip("pyfory")
    return pyfory.Fory(xlang=True, ref=True, compatible=False)
