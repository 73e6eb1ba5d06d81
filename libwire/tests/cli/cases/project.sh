. ./cases/lib.inc
# A payload read as the schema's version of its types.
run 'wire decode --plain --project --schema schemas/shop.fdl data/order.java.bin | jq -c "[.id, .status, .note]"'
run 'wire decode --project --schema schemas/tree.fdl data/tree.pyfory.bin | head -c 120; echo'
