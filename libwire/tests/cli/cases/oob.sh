. ./cases/lib.inc
# Out-of-band buffers (spec 1.12.1): Fory Java's bytes for a list of two
# byte[] with both bodies out of band, and its buffers as files.
cd "$(mktemp -d)" || exit 1
printf '\011' > part.0
printf '\010' > part.1
run 'echo 03ff160208290000 | wire decode --hex --buffer part.0 --buffer part.1'
run 'echo 03ff160208290000 | wire decode --hex --buffers part'
run 'echo 03ff160208290000 | wire decode --hex --buffers part | wire encode --hex --buffers again && od -An -tx1 again.0 again.1'
run 'echo 03ff160208290000 | wire decode --hex --buffers part | wire encode --hex'
run 'echo 03ff160208290000 | wire decode --hex --buffer part.0'
run 'echo 03ff160208290000 | wire decode --hex --buffers part --buffer part.0'
run 'echo 03ff2902 | wire decode --hex'
run 'echo 03ff2e00 | wire decode --hex --buffer part.0'
run 'echo 03ff2900 | wire dump --hex --buffer part.0'
# pyfory marks binaries only; its arrays keep the plain form
run 'echo 03ff2e080100000002000000 | wire decode --hex --peer pyfory'
# writing: fresh roots with --oob, the buffers to PREFIX.N
run 'echo "{\"list\": [{\"binary\": \"6162\"}, {\"int32_array\": [\"1\", \"-1\"]}]}" | wire encode --hex --oob --buffers out && od -An -tx1 out.0 out.1'
run 'echo "{\"list\": [{\"binary\": \"6162\"}, {\"int32_array\": [\"1\", \"-1\"]}]}" | wire encode --hex --oob --peer pyfory --buffers out'
run 'echo "{\"binary\": \"6162\", \"band\": \"in\", \"oob\": true}" | wire encode --hex'
run 'echo "{\"list\": [{\"binary\": \"6162\", \"oob\": true}]}" | wire encode --hex'
run 'echo 03ff2900 | wire decode --hex --buffer missing.0'
run 'echo "{\"binary\": \"6162\"}" | wire encode --hex --oob --buffers no-such-dir/out'
run 'echo 03ff2900 | wire decode --hex --buffers "$(printf "%04100d" 0)"'
run 'echo "{\"binary\": \"6162\"}" | wire encode --hex --oob --buffers "$(printf "%04100d" 0)"'
run 'wire decode $(for i in $(seq 65); do printf -- "--buffer x "; done)'
