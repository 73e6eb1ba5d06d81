. ./cases/lib.inc
# A schema hash that does not match: which flag differs, and the fingerprint.
run 'wire decode --schema schemas/address-optional-street.fdl data/address.pyfory-same-schema.bin'
run 'wire schema --fingerprint shop.Address --schema schemas/address-optional-street.fdl'
run 'wire schema --fingerprint shop.Address --schema schemas/shop.fdl'
run 'wire decode --plain --schema schemas/shop.fdl data/address.pyfory-same-schema.bin'
run 'wire schema --fingerprint shop.Person --schema schemas/address-optional-street.fdl'
# pyfory's type meta before a nested named struct (errata E-33)
run 'wire decode --schema schemas/shop.fdl data/order.pyfory-same-schema.bin'
