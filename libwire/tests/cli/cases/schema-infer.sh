. ./cases/lib.inc
run 'wire schema data/order.pyfory.bin'
run 'wire schema data/order.java.bin'
run 'wire schema data/order.go.bin'
run 'wire schema data/order.java.bin > /tmp/wire-golden-order.fdl && wire decode --plain --schema /tmp/wire-golden-order.fdl data/order.java.bin | jq -c "[.status, .customer.name]"'
run 'wire schema data/order.pyfory-same-schema.bin'
run 'echo 01ff1b669503b51e0c70656e01ff04f80a | wire schema --hex'
run 'echo 01ff0702 | wire schema --hex'
# an all-null list of a struct element type (pyfory's Holder(colors=[None],
# leaves=[None, None]), test_null_lists.c): the list keeps the element's
# type meta and TypeDef, so the field is a list of that message
run 'echo 01ff1e001620c6b217431b5ae2054c131dcb19224c166609cb74644c167a2c80a924010efd020a1e020a30f40d119f744ce1054c0f2c802840055cfdfd | wire schema --hex'
run 'echo 01ff1c00108096c08603ec17c2664c166609cb74644c16722c80a924010efd020a1c0205b041dfe88ea318c16540055cfdfd > /tmp/wire-golden-holder.hex && wire schema --hex /tmp/wire-golden-holder.hex | tee /tmp/wire-golden-holder.fdl && wire decode --hex --plain --schema /tmp/wire-golden-holder.fdl /tmp/wire-golden-holder.hex'
