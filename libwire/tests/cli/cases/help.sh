. ./cases/lib.inc
run 'wire help'
run 'wire help decode'
run 'wire encode --help'
run 'wire dump -h'
run 'wire help schema'
run 'wire --version'
run 'wire version'
run 'wire help --man | head -5'
