"""The callgrind runs of the benchmark drivers (report.py, tape_report.py,
six.py): a program run under callgrind with instrumentation off until it
asks (CALLGRIND_START_INSTRUMENTATION), one combined output file whose
dumps are labelled "<what> <n>" by the program (CALLGRIND_DUMP_STATS_AT),
and Ir per operation = (Ir(n2) - Ir(n1)) / (n2 - n1) of a label measured
at two loop counts n1 and n2."""
import re

CALLGRIND = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             "--combine-dumps=yes"]


def parse_dumps(path):
    """{label: {n: Ir}} from a combined callgrind output file."""
    out, label = {}, None
    with open(path) as fh:
        for line in fh:
            m = re.match(r"desc: Trigger: Client Request: (.*) (\d+)$", line)
            if m:
                label = (m.group(1), int(m.group(2)))
                continue
            if line.startswith("summary:") and label:
                out.setdefault(label[0], {})[label[1]] = int(line.split()[1])
                label = None
    return out


def per_op(dumps, label, n1, n2):
    """Ir per operation of label, None unless it was dumped at n1 and n2."""
    d = dumps.get(label, {})
    if n1 not in d or n2 not in d:
        return None
    return (d[n2] - d[n1]) / (n2 - n1)


def per_op_all(dumps, n1, n2):
    """{label: Ir per op} of every label dumped at both n1 and n2."""
    return {k: (d[n2] - d[n1]) / (n2 - n1) for k, d in dumps.items()
            if n1 in d and n2 in d}
