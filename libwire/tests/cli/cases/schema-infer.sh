. ./cases/lib.inc
run 'wire schema data/order.pyfory.bin'
run 'wire schema data/order.java.bin'
run 'wire schema data/order.go.bin'
run 'wire schema data/order.java.bin > /tmp/wire-golden-order.fdl && wire decode --plain --schema /tmp/wire-golden-order.fdl data/order.java.bin | jq -c "[.status, .customer.name]"'
run 'wire schema data/order.pyfory-same-schema.bin'
run 'echo 01ff1b669503b51e0c70656e01ff04f80a | wire schema --hex'
run 'echo 01ff0702 | wire schema --hex'
