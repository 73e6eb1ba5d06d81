"""The C prototypes of wire.h for the node-level API (ctypes).

libwire's C sources are compiled into the extension module libwire._native
(setup.py), which exports their wire_* functions; ctypes loads that same
file, so the documents and the codec share one library and one wire_ctx.
"""

import ctypes
import os
import sys

from ctypes import (POINTER, c_char_p, c_double, c_float, c_int32, c_int64,
                    c_size_t, c_uint16, c_uint32, c_uint64, c_void_p)

from . import _native

__all__ = ["lib", "library_path", "has"]


def _load():
    path = _native.__file__
    return ctypes.CDLL(path), path


lib, library_path = _load()

P = c_void_p                  # opaque handles: wire_ctx*, wire_doc*, ...
B = c_char_p                  # const uint8_t * / const char * input (bytes)
PP = POINTER(c_void_p)        # out pointer
PSZ = POINTER(c_size_t)
PI32 = POINTER(c_int32)
PU32 = POINTER(c_uint32)
PU64 = POINTER(c_uint64)

# name: (restype, [argtypes]); the whole of wire.h.
_PROTOS = {
    # version, status, type ids
    "wire_version_number": (c_uint32, []),
    "wire_version_string": (c_char_p, []),
    "wire_status_name": (c_char_p, [c_int32]),
    "wire_status_message": (c_char_p, [c_int32]),
    "wire_type_name": (c_char_p, [c_uint32]),
    "wire_type_from_name": (c_int32, [B, c_size_t]),
    "wire_type_array_width": (c_uint32, [c_uint32]),
    # context
    "wire_ctx_new": (P, []),
    "wire_ctx_free": (None, [P]),
    "wire_ctx_set_option": (c_int32, [P, c_int32, c_int64]),
    "wire_ctx_get_option": (c_int64, [P, c_int32]),
    "wire_ctx_set_limit": (c_int32, [P, c_int32, c_uint64]),
    "wire_ctx_get_limit": (c_uint64, [P, c_int32]),
    "wire_ctx_error_code": (c_int32, [P]),
    "wire_ctx_error_offset": (c_uint64, [P]),
    "wire_ctx_error_message": (c_char_p, [P]),
    "wire_ctx_clear_error": (None, [P]),
    "wire_ctx_free_bytes": (None, [P, P]),
    # primitives
    "wire_murmur3_x64_128": (None, [B, c_size_t, c_uint64, PU64, PU64]),
    "wire_float16_from_double": (c_uint16, [c_double]),
    "wire_float16_to_double": (c_double, [c_uint16]),
    "wire_float16_from_float": (c_uint16, [c_float]),
    "wire_float16_to_float": (c_float, [c_uint16]),
    "wire_bfloat16_from_float": (c_uint16, [c_float]),
    "wire_bfloat16_to_float": (c_float, [c_uint16]),
    "wire_bfloat16_from_double": (c_uint16, [c_double]),
    "wire_utf8_validate": (c_int32, [B, c_size_t]),
    "wire_string_choose_encoding": (c_int32, [B, c_size_t]),
    "wire_string_to_utf8": (c_int32, [P, c_int32, B, c_size_t, PP, PSZ]),
    "wire_meta_encoding_name": (c_char_p, [c_int32]),
    "wire_meta_choose_encoding": (c_int32, [c_int32, B, c_size_t]),
    "wire_meta_encode": (c_int32, [c_int32, c_int32, B, c_size_t, P, c_size_t,
                                   PSZ]),
    "wire_meta_decode": (c_int32, [c_int32, c_int32, B, c_size_t, P, c_size_t,
                                   PSZ]),
    # document
    "wire_doc_new": (P, [P]),
    "wire_doc_free": (None, [P]),
    "wire_doc_root_count": (c_size_t, [P]),
    "wire_doc_root": (P, [P, c_size_t]),
    "wire_doc_add_root": (c_int32, [P, P]),
    "wire_node_new_null": (P, [P]),
    "wire_node_new_none": (P, [P]),
    "wire_node_new_bool": (P, [P, c_int32]),
    "wire_node_new_int": (P, [P, c_uint32, c_int64]),
    "wire_node_new_uint": (P, [P, c_uint32, c_uint64]),
    "wire_node_new_float_bits": (P, [P, c_uint32, c_uint64]),
    "wire_node_new_float": (P, [P, c_uint32, c_double]),
    "wire_node_new_string": (P, [P, B, c_size_t, c_int32]),
    "wire_node_new_binary": (P, [P, B, c_size_t]),
    "wire_node_new_array": (P, [P, c_uint32, B, c_size_t]),
    "wire_node_new_date": (P, [P, c_int64]),
    "wire_node_new_timestamp": (P, [P, c_int64, c_uint32]),
    "wire_node_new_duration": (P, [P, c_int64, c_uint32]),
    "wire_node_new_decimal": (P, [P, c_int32, B, c_size_t, c_int32]),
    "wire_node_new_enum": (P, [P, c_uint32, c_uint32]),
    "wire_node_new_named_enum": (P, [P, B, c_size_t, B, c_size_t, c_uint32]),
    "wire_node_new_list": (P, [P, c_uint32]),
    "wire_list_append": (c_int32, [P, P, P]),
    "wire_node_new_map": (P, [P]),
    "wire_map_put": (c_int32, [P, P, P, P]),
    "wire_node_new_struct": (P, [P, c_uint32]),
    "wire_struct_set_field": (c_int32, [P, P, B, c_size_t, P]),
    "wire_node_new_struct_typedef": (P, [P, B, c_size_t]),
    "wire_node_new_struct_like": (P, [P, P]),
    "wire_node_new_enum_of": (P, [P, c_uint32, c_uint32]),
    "wire_node_new_union": (P, [P, c_uint32, c_uint32, P]),
    "wire_node_set_tracked": (c_int32, [P, c_int32]),
    "wire_node_tracked": (c_int32, [P]),
    "wire_list_set_header": (c_int32, [P, c_int32]),
    "wire_list_header": (c_int32, [P]),
    "wire_map_add_chunk": (c_int32, [P, P, c_uint32, c_uint32]),
    "wire_map_clear_chunks": (c_int32, [P]),
    "wire_map_chunk_count": (c_size_t, [P]),
    "wire_map_chunk": (c_int32, [P, c_size_t, PU32, PU32]),
    "wire_node_set_name_encodings": (c_int32, [P, c_int32, c_int32]),
    "wire_node_name_encodings": (c_int32, [P, PI32, PI32]),
    "wire_node_set_name_hash_forms": (c_int32, [P, c_int32, c_int32]),
    "wire_node_name_hash_forms": (c_int32, [P, PI32, PI32]),
    "wire_node_set_name_refs": (c_int32, [P, c_int32, c_int32]),
    "wire_node_name_refs": (c_int32, [P, PI32, PI32]),
    "wire_node_type": (c_uint32, [P]),
    "wire_node_int": (c_int64, [P]),
    "wire_node_uint": (c_uint64, [P]),
    "wire_node_float_bits": (c_uint64, [P]),
    "wire_node_float": (c_double, [P]),
    "wire_node_nanos": (c_uint32, [P]),
    "wire_node_bytes": (c_void_p, [P, PSZ]),
    "wire_node_string_encoding": (c_int32, [P]),
    "wire_node_string_utf8": (c_int32, [P, P, c_size_t, PSZ]),
    "wire_node_decimal_negative": (c_int32, [P]),
    "wire_node_decimal_scale": (c_int32, [P]),
    "wire_node_enum_type_id": (c_uint32, [P]),
    "wire_node_enum_namespace": (c_void_p, [P, PSZ]),
    "wire_node_enum_value": (c_uint32, [P]),
    "wire_node_count": (c_size_t, [P]),
    "wire_node_child": (P, [P, c_size_t]),
    "wire_node_map_key": (P, [P, c_size_t]),
    "wire_node_map_value": (P, [P, c_size_t]),
    "wire_node_field": (P, [P, c_size_t]),
    "wire_node_field_name": (c_void_p, [P, c_size_t, PSZ]),
    "wire_node_field_tag": (c_int32, [P, c_size_t]),
    "wire_node_user_type": (c_int32, [P, P, PU32]),
    "wire_struct_project": (c_int32, [P, P, c_uint32, PP]),
    "wire_node_type_names": (c_int32, [P, PP, PSZ, PP, PSZ]),
    "wire_node_user_type_id": (c_uint32, [P]),
    "wire_node_typedef": (c_void_p, [P, PSZ]),
    "wire_node_union_case": (c_uint32, [P]),
    "wire_node_union_value": (P, [P]),
    "wire_node_index": (c_uint32, [P]),
    "wire_doc_node_count": (c_size_t, [P]),
    # schema
    "wire_schema_add_type": (c_int32, [P, c_int32, c_uint32, B, c_size_t, B,
                                     c_size_t, c_int32, PU32]),
    "wire_schema_field_type": (P, [P, c_uint32, c_int32, c_int32]),
    "wire_schema_field_user_type": (P, [P, c_uint32, c_int32, c_int32]),
    "wire_schema_field_type_set_element": (c_int32, [P, P]),
    "wire_schema_field_type_set_key_value": (c_int32, [P, P, P]),
    "wire_schema_add_field": (c_int32, [P, c_uint32, B, c_size_t, c_int32, P]),
    "wire_schema_add_enum_value": (c_int32, [P, c_uint32, B, c_size_t, c_uint32]),
    "wire_schema_add_union_case": (c_int32, [P, c_uint32, c_uint32, B, c_size_t, P]),
    "wire_schema_load_fdl": (c_int32, [P, B, c_size_t, B]),
    "wire_schema_load_fdl_file": (c_int32, [P, B]),
    "wire_schema_finish": (c_int32, [P]),
    "wire_schema_type_count": (c_uint32, [P]),
    "wire_schema_find_type": (c_int32, [P, B, c_size_t, PU32]),
    "wire_schema_type_name": (c_char_p, [P, c_uint32]),
    "wire_schema_type_kind": (c_int32, [P, c_uint32]),
    # codec
    "wire_decode": (c_int32, [P, B, c_size_t, PP]),
    "wire_encode": (c_int32, [P, P, PP, PSZ]),
    # value notation
    "wire_notation_print": (c_int32, [P, P, P, c_uint32, PP, PSZ]),
    "wire_notation_parse": (c_int32, [P, P, B, c_size_t, c_uint32, PP, PSZ]),
}

_missing = []
for _name, (_res, _args) in _PROTOS.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        _missing.append(_name)
        continue
    _f.restype = _res
    _f.argtypes = _args
if _missing:
    raise ImportError("libwire at %s lacks %s" % (library_path,
                                                  ", ".join(_missing)))


def has(name):
    """Whether the loaded library exports `name`."""
    try:
        getattr(lib, name)
        return True
    except AttributeError:
        return False


class Closing:
    """What Context and Document share about their C handle: close() on
    leaving a `with` block and when collected, but not while the interpreter
    exits, when objects go in any order (a document may outlive its
    context): then the handle is left to the process's end, not freed."""

    def __del__(self):
        if sys.is_finalizing():
            return
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
