"""pytest configuration for the libwire Python suite.

Run from the repository root:

    python3 -m pytest -q libwire/tests/py --wire build/bin/wire
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PEER_DIR = os.path.join(REPO, "conformance", "peers", "python")

# The tests import their helpers (wirecli.py, notation.py) and the pyfory
# peer adapter (pyfory_peer.py) as plain modules.
for path in (HERE, PEER_DIR):
    if path not in sys.path:
        sys.path.insert(0, path)


def pytest_addoption(parser):
    parser.addoption(
        "--wire",
        action="store",
        default="build/bin/wire",
        help="path of the wire CLI (default build/bin/wire, relative to the "
        "current directory or, failing that, to the repository root)",
    )


def _resolve(path):
    if os.path.isabs(path):
        return path
    for base in (os.getcwd(), REPO):
        cand = os.path.join(base, path)
        if os.path.exists(cand):
            return os.path.abspath(cand)
    return os.path.abspath(path)


@pytest.fixture(scope="session")
def wire(request):
    import wirecli

    path = _resolve(request.config.getoption("--wire"))
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail("wire CLI not found or not executable: %s (run `make all`)" % path)
    return wirecli.Wire(path)
