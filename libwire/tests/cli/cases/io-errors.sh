. ./cases/lib.inc
run 'wire decode data/no-such-file.bin'
run 'wire encode data/no-such-file.json'
run 'wire decode --schema schemas/no-such.fdl data/tree.pyfory.bin'
run 'echo 01ff07zz | wire decode --hex'
run 'echo 01ff070 | wire decode --hex'
run 'printf "" | wire decode'
run 'echo 01ff0102 | wire decode --hex'
run 'echo 02ff0101 | wire decode --hex'
