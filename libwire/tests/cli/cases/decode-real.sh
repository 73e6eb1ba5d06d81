. ./cases/lib.inc
# The same order written by pyfory, Fory Java and Fory Go, in compatible
# mode, read without a schema and without --compatible.
run 'wire decode data/order.pyfory.bin'
run 'wire decode data/order.java.bin'
run 'wire decode data/order.go.bin'
run 'wire decode --pretty data/person.pyfory.bin'
run 'wire decode data/tree.java.bin | wire encode --hex'
run 'od -An -tx1 -v data/tree.java.bin | tr -d " \n"; echo'
