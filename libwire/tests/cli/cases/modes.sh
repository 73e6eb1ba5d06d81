. ./cases/lib.inc
# Compatible payloads are read in compatible mode without being told.
run 'wire decode --plain data/tree.pyfory.bin'
run 'wire decode --plain --same-schema data/tree.pyfory.bin'
run 'wire decode --plain --compatible --schema schemas/tree.fdl data/tree.pyfory-same-schema.bin'
run 'wire decode --plain --schema schemas/tree.fdl data/tree.pyfory-same-schema.bin'
run 'wire decode data/tree.pyfory-same-schema.bin'
run 'wire dump data/tree.pyfory-same-schema.bin'
# Neither mode reads it: the error of the mode the bytes suggest, and the
# other mode's.
run '(od -An -tx1 -v data/tree.pyfory.bin; echo 01ff1a06040c8c70080489cb744002 01ff0102) | wire decode --hex'
