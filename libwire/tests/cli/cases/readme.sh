. ./cases/lib.inc
# The commands of README.md, "First five minutes".
run 'wire dump data/order.pyfory.bin | head -5'
run 'wire dump data/order.pyfory.bin | grep -m1 unscaled'
run 'wire decode data/order.pyfory.bin | cut -c1-100'
run 'wire decode --plain data/order.pyfory.bin | jq -c "{name: .customer.name, prices: [.lines[].product.price]}"'
run 'wire schema data/order.pyfory.bin > /tmp/wire-readme-shop.fdl && wire decode --plain --schema /tmp/wire-readme-shop.fdl data/order.pyfory.bin | jq .status'
run 'wire decode --schema schemas/address-optional-street.fdl data/address.pyfory-same-schema.bin 2>&1 | head -1'
