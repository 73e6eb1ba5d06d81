. ./cases/lib.inc
# Schema loads that succeed with a warning, and a .proto import.
run 'echo "{\"struct\": {\"type\": \"strict.Outer\", \"fields\": {\"inner\": {\"struct\": {\"type\": \"strict.Inner\", \"fields\": {\"a\": {\"varint32\": \"1\"}}}}, \"payload\": {\"string\": \"p\"}, \"s\": {\"string\": \"s\"}}}}" | wire encode --hex --schema schemas/strict-inner.fdl'
run 'wire schema --fingerprint strict.Outer --schema schemas/strict-inner.fdl'
run 'wire schema --fingerprint uses_proto.M --schema schemas/imports-proto.fdl'
