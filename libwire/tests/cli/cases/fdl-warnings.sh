. ./cases/lib.inc
# Schema loads that succeed with a warning, and a .proto import.
run 'echo "{\"struct\": {\"type\": \"strict.Outer\", \"fields\": {\"inner\": {\"struct\": {\"type\": \"strict.Inner\", \"fields\": {\"a\": {\"varint32\": \"1\"}}}}, \"payload\": {\"string\": \"p\"}, \"s\": {\"string\": \"s\"}}}}" | wire encode --hex --schema schemas/strict-inner.fdl'
run 'wire schema --fingerprint strict.Outer --schema schemas/strict-inner.fdl'
run 'wire schema --fingerprint uses_proto.M --schema schemas/imports-proto.fdl'
# the file can say it is not for foryc (R-FDLX-10)
run '(echo "option wire_warn_foryc = false;"; cat schemas/strict-inner.fdl) > /tmp/wire-golden-quiet.fdl && wire schema --fingerprint strict.Outer --schema /tmp/wire-golden-quiet.fdl | head -1'
