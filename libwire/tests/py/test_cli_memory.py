"""Peak memory of `wire decode` (issue 9, item 7): the output is streamed,
so peak RSS stays within 64 x input + 16 MiB for the inputs that amplify
most (a map of null->null entries, a list of nulls: one input byte per
value), whether it prints the notation, plain JSON or pretty JSON.
Skipped under AddressSanitizer, whose shadow memory is not the program's."""

import os
import subprocess

import pytest

BOUND = lambda n: 64 * n + 16 * 1024 * 1024  # noqa: E731


def varu(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


PAYLOADS = {
    "map of null->null": lambda n: b"\x01\xff\x18" + varu(n) + b"\x12" * n,
    "list of nulls": lambda n: b"\x01\xff\x16" + varu(n) + b"\x02" + b"\xfd" * n,
}


def peak_rss(argv, data, tmp_path):
    """Peak RSS of the CLI alone, from GNU time (`time` in .ci/setup): a
    child of this Python process would count the pages it inherits."""
    src = tmp_path / "in.bin"
    src.write_bytes(data)
    report = tmp_path / "rss"
    with open(src, "rb") as f:
        p = subprocess.run(["/usr/bin/time", "-o", str(report), "-f", "%M"] + argv,
                           stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr
    return int(report.read_text().split()[-1]) * 1024


@pytest.mark.skipif("ASAN_OPTIONS" in os.environ, reason="AddressSanitizer build")
@pytest.mark.parametrize("kind", list(PAYLOADS))
@pytest.mark.parametrize("flag", [[], ["--plain"], ["--pretty"]], ids=["notation", "plain", "pretty"])
def test_decode_peak_rss(wire, kind, flag, tmp_path):
    n = 100_000
    data = PAYLOADS[kind](n)
    rss = peak_rss([wire.path, "decode"] + flag, data, tmp_path)
    assert rss <= BOUND(len(data)), "%s: peak RSS %d bytes for %d input bytes" % (kind, rss, len(data))
