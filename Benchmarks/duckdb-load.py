"""DuckDB's bare load of ACFTREF and MASTER: the FAA build's yardstick in `make bench`.

    python duckdb-load.py ACFTREF.txt MASTER.txt

Each file becomes an in-memory table through `read_csv`, every column text (no type sniffing
to pay for or to fail), header from the file; nothing is normalized, joined, checked or
written. The counts go to standard error so that a wrong read shows.
"""
import sys

import duckdb

connection = duckdb.connect()
for table, path in (("acftref", sys.argv[1]), ("master", sys.argv[2])):
    literal = "'" + path.replace("'", "''") + "'"
    connection.execute(f"CREATE TABLE {table} AS SELECT * FROM read_csv({literal}, all_varchar = true, header = true)")
    rows = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    print(f"duckdb-load: {table} {rows} rows", file=sys.stderr)
