. ./cases/lib.inc
# Edited documents: recorded wire choices that no longer fit are chosen again.
run 'echo "{\"list\": [{\"varint64\": \"1\"}, {\"string\": \"a\"}], \"header\": 12}" | wire encode --hex'
run 'echo "{\"list\": [{\"varint64\": \"1\"}, {\"string\": \"a\"}], \"header\": 12}" | wire encode --hex --strict'
run 'echo "{\"map\": [[{\"string\": \"a\"}, {\"varint64\": \"1\"}], [{\"string\": \"b\"}, {\"null\": null}]], \"chunks\": [[0, 2]]}" | wire encode --hex'
run 'echo "{\"map\": [[{\"string\": \"a\"}, {\"varint64\": \"1\"}], [{\"string\": \"b\"}, {\"null\": null}]], \"chunks\": [[0, 2]]}" | wire encode --hex --strict'
run 'echo "{\"string\": \"日本\", \"enc\": \"latin1\"}" | wire encode --hex'
run 'echo "{\"string\": \"日本\", \"enc\": \"latin1\"}" | wire encode --hex --strict'
run 'wire decode data/order.pyfory.bin | sed "s/Ada Lovelace/Ada King, Countess of Lovelace/" | wire encode | wire decode --plain | jq -r .customer.name'
run 'echo "{\"varint64\": \"1\"} {\"varint64\": " | wire encode --hex'
run 'echo "{\"frobnicate\": 1}" | wire encode --hex'
run 'echo "{\"int8\": \"300\"}" | wire encode --hex'
run 'echo "{\"struct\": {\"type\": \"shop.Nope\", \"fields\": {}}}" | wire encode --hex --schema schemas/shop.fdl'
