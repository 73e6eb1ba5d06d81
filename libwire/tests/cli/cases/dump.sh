. ./cases/lib.inc
run 'echo 01ff1b669503b51e0c70656e01ff04f80a | wire dump --hex --schema schemas/item.fdl'
run 'echo 01ff2805bc2101ff2794a80201ff2664000000000000000100000001ff25010065cd1d | wire dump --hex'
run 'wire dump data/person.java.bin'
run 'echo 01ff160302ff0702ff1504 | wire dump --hex'
run 'echo 01ff1502 | wire dump --hex --color=always'
run 'echo 01ff1502 | wire dump --hex --color=never'
# stdout and stderr into one file: the error follows the rows, on its own line
run 'echo 01ff160302ff0702ff1504 | wire dump --hex 2>&1 | tail -2'
