. ./cases/lib.inc
# pyfory's same-schema Person: type meta before its named Address fields
# (errata E-33), read and written back with --peer pyfory
run 'wire decode --plain --same-schema --schema schemas/person.fdl data/person.pyfory-same-schema.bin 2>&1 | head -1'
run 'wire decode --same-schema --peer pyfory --schema schemas/person.fdl data/person.pyfory-same-schema.bin | wire encode --same-schema --peer pyfory --schema schemas/person.fdl | cmp - data/person.pyfory-same-schema.bin && echo same bytes'
run 'wire decode --peer rust data/tree.pyfory.bin'
# a writer's field the reader's schema lacks: a warning, with --strict an error
run 'wire decode --plain --project --schema schemas/address-city-only.fdl data/address.pyfory.bin'
run 'wire decode --plain --project --strict --schema schemas/address-city-only.fdl data/address.pyfory.bin'
# FDL imports: -I DIR
run "wire decode -I '' data/tree.pyfory.bin"
run "wire decode $(for i in $(seq 65); do printf -- '-I schemas '; done) data/tree.pyfory.bin"
