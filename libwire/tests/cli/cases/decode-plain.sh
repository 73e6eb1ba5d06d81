. ./cases/lib.inc
run 'wire decode --plain data/order.pyfory.bin'
run 'wire decode --plain data/order.java.bin'
run 'wire decode --plain data/order.go.bin'
run 'wire decode --plain data/order.pyfory.bin | jq -r .customer.name'
run 'wire decode --plain data/order.java.bin | jq -r .customer.name'
run 'wire decode --plain --schema schemas/shop.fdl data/order.pyfory.bin | jq -c "[.status, .lines[0].product.price, .placed]"'
run 'wire decode --plain --pretty data/tree.pyfory.bin'
# big integers as strings, NaN, a map with other than string keys, a cycle
run 'echo "{\"uint64\": \"18446744073709551615\"} {\"int64\": \"-9007199254740992\"} {\"float64\": \"nan\"} {\"float32\": \"0.1\"} {\"map\": [[{\"varint64\": \"1\"}, {\"string\": \"a\"}]]} {\"list\": [{\"ref\": \"x\"}], \"anchor\": \"x\"}" | wire encode --hex | wire decode --hex --plain'
run 'echo "{\"decimal\": {\"unscaled\": \"-5\", \"scale\": 3}} {\"duration\": {\"seconds\": \"-1\", \"nanos\": 500000000}} {\"date\": \"-800000\"} {\"binary\": \"ff\"} {\"int32_array\": [\"1\", \"-2\"]}" | wire encode --hex | wire decode --hex --plain'
