"""Builds libwire._native: the binding's C extension together with
libwire's own C sources, so `pip install bindings/python` needs nothing but
a C compiler and the Python headers (no prior `make`, no LIBWIRE_PATH).

In the repository the sources are copied from ../../libwire into _libwire/
(which the sdist carries); an unpacked sdist uses its _libwire/ as is.
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_LIB = os.path.normpath(os.path.join(HERE, "..", "..", "libwire"))
VENDOR = os.path.join(HERE, "_libwire")


def vendor():
    """Refreshes _libwire/ from the repository's libwire/ when there is one."""
    if not os.path.exists(os.path.join(REPO_LIB, "include", "wire.h")):
        return
    for sub, pats in (("include", ["wire.h"]), ("src", ["*.c", "*.h"])):
        dst = os.path.join(VENDOR, sub)
        os.makedirs(dst, exist_ok=True)
        want = set()
        for pat in pats:
            for f in glob.glob(os.path.join(REPO_LIB, sub, pat)):
                name = os.path.basename(f)
                want.add(name)
                out = os.path.join(dst, name)
                with open(f, "rb") as a:
                    data = a.read()
                try:
                    with open(out, "rb") as b:
                        same = b.read() == data
                except OSError:
                    same = False
                if not same:
                    shutil.copyfile(f, out)
        for f in os.listdir(dst):          # sources removed upstream
            if f not in want:
                os.remove(os.path.join(dst, f))


vendor()
subprocess.check_call([sys.executable,
                       os.path.join(HERE, "tools", "gen_constants.py"),
                       os.path.join(VENDOR, "include", "wire.h"),
                       os.path.join(HERE, "libwire", "_constants.h")])

lib_sources = sorted(os.path.relpath(p, HERE) for p in
                     glob.glob(os.path.join(VENDOR, "src", "*.c")))
if not lib_sources:
    sys.exit("setup.py: libwire's C sources are missing (_libwire/src)")

native = Extension(
    "libwire._native",
    sources=["libwire/_native.c", "libwire/_mem.c", "libwire/_pybytes.c",
             "libwire/_enums.c"]
    + lib_sources,
    depends=["libwire/_native.h", "libwire/_constants.h"],
    include_dirs=["_libwire/include", "_libwire/src", "libwire"],
    define_macros=[("_DEFAULT_SOURCE", None)],
    # -fvisibility=hidden: only PyInit__native and libwire's WIRE_API
    # functions are exported (the node-level API loads them with ctypes).
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden",
                        "-Wall", "-Wno-unused-parameter"],
    libraries=["m"],
)

setup(ext_modules=[native])
