"""Finds and decodes the shared TypeDefs in a corpus buffer (format-facts.md
1.9): prints kind, registration, and every field with its type tree and
nullable/ref bits.  Used to check the .fdl schemas against what the runtimes
wrote, and by the README's hand decodes.

    python3 typedefs.py fixtures/xlang-corpus/<case>.json [java|pyfory]
"""

import json
import sys

TYPE_NAMES = {
    0: "unknown", 1: "bool", 2: "int8", 3: "int16", 4: "int32", 5: "varint32", 6: "int64", 7: "varint64",
    8: "tagged_int64", 9: "uint8", 10: "uint16", 11: "uint32", 12: "var_uint32", 13: "uint64", 14: "var_uint64",
    15: "tagged_uint64", 17: "float16", 18: "bfloat16", 19: "float32", 20: "float64", 21: "string", 22: "list",
    23: "set", 24: "map", 25: "enum", 26: "named_enum", 27: "struct", 28: "compatible_struct", 29: "named_struct",
    30: "named_compatible_struct", 31: "ext", 32: "named_ext", 33: "union", 34: "typed_union", 35: "named_union",
    36: "none", 37: "duration", 38: "timestamp", 39: "date", 40: "decimal", 41: "binary", 43: "bool_array",
    44: "int8_array", 45: "int16_array", 46: "int32_array", 47: "int64_array", 48: "uint8_array",
    49: "uint16_array", 50: "uint32_array", 51: "uint64_array", 53: "float16_array", 54: "bfloat16_array",
    55: "float32_array", 56: "float64_array",
}
LOWER_SPECIAL = "abcdefghijklmnopqrstuvwxyz._$|"


def varuint(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if not x & 0x80:
            return r, i


def decode_bits(data, bpc, table):
    bits = "".join(format(x, "08b") for x in data)
    strip = bits[0] == "1"
    body = bits[1:]
    n = len(body) // bpc
    chars = [table(int(body[k * bpc:(k + 1) * bpc], 2)) for k in range(n)]
    if strip:
        chars = chars[:-1]
    return "".join(chars)


def luds(specials):
    def table(v):
        if v < 26:
            return chr(97 + v)
        if v < 52:
            return chr(65 + v - 26)
        if v < 62:
            return chr(48 + v - 52)
        return specials[v - 62]
    return table


def decode_name(data, enc, specials="$_"):
    if enc == "utf8":
        return data.decode("utf-8")
    if enc == "luds":
        return decode_bits(data, 6, luds(specials))
    s = decode_bits(data, 5, lambda v: LOWER_SPECIAL[v] if v < len(LOWER_SPECIAL) else "?")
    if enc == "all_to_lower_special":
        out, k = [], 0
        while k < len(s):
            if s[k] == "|":
                out.append(s[k + 1].upper())
                k += 2
            else:
                out.append(s[k])
                k += 1
        return "".join(out)
    if enc == "first_to_lower_special":
        return s[:1].upper() + s[1:]
    return s


NS_ENC = ["utf8", "all_to_lower_special", "luds"]
TYPE_ENC = ["utf8", "all_to_lower_special", "luds", "first_to_lower_special"]
FIELD_ENC = ["utf8", "all_to_lower_special", "luds", "tag"]


def field_type(b, i, top):
    if top:
        tid = b[i]
        i += 1
        nullable = ref = None
    else:
        v, i = varuint(b, i)
        tid, nullable, ref = v >> 2, (v >> 1) & 1, v & 1
    name = TYPE_NAMES.get(tid, "?%d" % tid)
    flags = "" if top else ("%s%s" % ("?" if nullable else "", "&" if ref else ""))
    if tid in (22, 23):
        e, i = field_type(b, i, False)
        return "%s%s<%s>" % (name, flags, e), i
    if tid == 24:
        k, i = field_type(b, i, False)
        v, i = field_type(b, i, False)
        return "%s%s<%s, %s>" % (name, flags, k, v), i
    return name + flags, i


def header_for(body):
    """The 8-byte TypeDef header the body should have (format-facts F-TD-2)."""
    from pyfory.lib import mmh3
    low12 = min(len(body), 0xFF)
    h = mmh3.hash_buffer(body + bytes([low12 & 0xFF, (low12 >> 8) & 0x0F]), 47)[0]
    h = (h << 12) & 0xFFFFFFFFFFFFFFFF
    if h >= 1 << 63:
        h -= 1 << 64
    if h != -(1 << 63):
        h = abs(h)
    h &= 0xFFFFFFFFFFFFF000
    return (h | low12) & 0xFFFFFFFFFFFFFFFF


def decode_typedef(b, i):
    """Decodes a TypeDef at b[i] (the 8-byte header). Returns (text, end)."""
    header = int.from_bytes(b[i:i + 8], "little")
    i += 8
    size = header & 0xFF
    if size == 0xFF:
        extra, i = varuint(b, i)
        size += extra
    end = i + size
    lines = ["TypeDef header %016x: body %d bytes, compress=%d, hash52=%013x (%s)" % (
        header, size, (header >> 8) & 1, header >> 12,
        "hash ok" if header_for(bytes(b[i:i + size])) == header else "hash MISMATCH")]
    first = b[i]
    i += 1
    if first & 0x80:
        n = first & 0x1F
        if n == 31:
            extra, i = varuint(b, i)
            n += extra
        kind = "struct%s%s" % (" compatible" if first & 0x40 else "", " by-name" if first & 0x20 else " by-id")
    else:
        n = 0
        kind = "non-struct kind %d" % (first & 0x0F)
        first |= 0x20 if (first & 0x0F) in (1, 3, 5) else 0
    if first & 0x20:
        parts = []
        for encs, specials in ((NS_ENC, "._"), (TYPE_ENC, "$_")):
            h = b[i]
            i += 1
            ln, enc = h >> 2, encs[h & 3]
            if ln == 63:
                extra, i = varuint(b, i)
                ln += extra
            parts.append(decode_name(bytes(b[i:i + ln]), enc, specials) + "(%s)" % enc)
            i += ln
        reg = "name %s / %s" % tuple(parts)
    else:
        uid, i = varuint(b, i)
        reg = "id %d" % uid
    lines.append("  %s, %s, %d fields" % (kind, reg, n))
    for _ in range(n):
        h = b[i]
        i += 1
        enc = FIELD_ENC[h >> 6]
        sz = (h >> 2) & 0x0F
        if sz == 15:
            extra, i = varuint(b, i)
            sz += extra
        nullable, ref = (h >> 1) & 1, h & 1
        t, i = field_type(b, i, True)
        if enc == "tag":
            fname = "#%d" % sz
        else:
            fname = decode_name(bytes(b[i:i + sz + 1]), enc)
            i += sz + 1
        lines.append("  field %-28s %-40s nullable=%d ref=%d (name enc %s)" % (fname, t, nullable, ref, enc))
    if i != end:
        lines.append("  !! decoded %d bytes, header says %d" % (i - (end - size), size))
    return "\n".join(lines), end


def scan(data):
    """Finds TypeDefs by looking for a shared-TypeDef marker after a compatible struct / named type id.
    Heuristic: tries every offset whose 8-byte header decodes consistently."""
    out = []
    i = 0
    while i < len(data) - 9:
        if data[i] in (28, 30, 26, 32, 35, 34, 25, 31) and data[i + 1] % 2 == 0:
            j = i + 2
            # the marker may be multi-byte
            try:
                text, end = decode_typedef(data, j)
                if "!!" not in text and end <= len(data):
                    out.append((j, text))
                    i = end
                    continue
            except (IndexError, KeyError, UnicodeDecodeError):
                pass
        i += 1
    return out


if __name__ == "__main__":
    doc = json.load(open(sys.argv[1]))
    which = sys.argv[2] if len(sys.argv) > 2 else "java"
    data = bytes.fromhex(doc[which + "_hex"])
    for off, text in scan(data):
        print("@%d %s" % (off, text))
