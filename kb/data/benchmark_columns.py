"""Adds benchmark columns to kb/data/benchmarks.csv and fills them for named rows of one source:
the routine kb/data/recompute_columns.py and kb/data/pipeline_layout_column.py share.  A row is
named by (gpu, gpu_count, workload, precision); each named row gets its values and a sentence
appended to its note (once: running again changes nothing).  Every other row keeps its fields,
the new columns empty."""
import csv
import io

PATH = "kb/data/benchmarks.csv"


def fill(source, columns, rows_by_key):
    """columns: the new columns' names; rows_by_key: key -> (value of each column..., sentence)."""
    with open(PATH, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for column in columns:
        if column not in header:
            header.append(column)
            for row in rows[1:]:
                row.append("")
    col = {name: i for i, name in enumerate(header)}
    found = set()
    for row in rows[1:]:
        if row[col["source"]] != source:
            continue
        key = (row[col["gpu"]], row[col["gpu_count"]], row[col["workload"]],
               row[col["precision"]])
        if key not in rows_by_key:
            continue
        *values, sentence = rows_by_key[key]
        for column, value in zip(columns, values):
            row[col[column]] = value
        if sentence not in row[col["note"]]:
            row[col["note"]] = row[col["note"]].rstrip() + " " + sentence
        found.add(key)
    missing = set(rows_by_key) - found
    if missing:
        raise SystemExit(f"{PATH}: no row for {sorted(missing)}")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    with open(PATH, "w", newline="") as f:
        f.write(out.getvalue())
