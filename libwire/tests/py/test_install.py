"""`make install` puts the library, the header, the CLI, its man page and libwire.pc in
PREFIX, and a program builds against them with pkg-config alone."""
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def test_install_and_build_with_pkg_config(tmp_path):
    prefix = tmp_path / "prefix"
    r = subprocess.run(["make", "-s", "install", "PREFIX=%s" % prefix], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for rel in ("include/wire.h", "lib/libwire.a", "lib/libwire.so",
                "lib/pkgconfig/libwire.pc", "bin/wire", "share/man/man1/wire.1"):
        assert (prefix / rel).exists(), rel
    soname = subprocess.run(["readelf", "-d", str(prefix / "lib" / "libwire.so")],
                            capture_output=True, text=True).stdout
    assert "Library soname: [libwire.so." in soname
    man = (prefix / "share" / "man" / "man1" / "wire.1").read_text()
    assert man.startswith(".TH WIRE 1") and ".SS \"wire decode" in man
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libwire"], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    src = tmp_path / "hello.c"
    src.write_text('#include <wire.h>\n#include <stdio.h>\n'
                   'int main(void) { wire_ctx *c = wire_ctx_new();\n'
                   '  printf("%s %s\\n", wire_version_string(), wire_status_name(WIRE_E_TRUNCATED));\n'
                   '  wire_ctx_free(c); return 0; }\n')
    exe = tmp_path / "hello"
    subprocess.run(["cc", str(src)] + flags + ["-Wl,-rpath,%s" % (prefix / "lib"), "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0.1.0", "truncated"]
