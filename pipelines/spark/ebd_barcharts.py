"""eBird bar charts from the eBird Basic Dataset (EBD) on Spark.

The same aggregation as FieldGuide's embedded engine (`aggregate-ebd`, the Swift code in
Sources/FieldGuideBirds/EBD), for data one machine cannot hold: the whole EBD is about 1.5
billion rows. Both engines write byte-identical `barchart-REGION.txt` files (the parity test
and `make bench` check it). Run by `aggregate-ebd --engine spark`, or on a cluster directly:

    spark-submit --master yarn pipelines/spark/ebd_barcharts.py \\
        --level state --output hdfs:///birds/barcharts hdfs:///ebd/ebd_relOct-2026.txt.gz

Inputs and output may be any path Spark reads and writes (local, hdfs://, s3a://); an input
may be a directory or a glob. The output directory receives one bar chart per region and
`ebd-spark-summary.json` (status, rows per file, counts, the listed rejects), which
`aggregate-ebd` turns into its rejects report and stage report.

Each data row, in this order (EBDAggregation.swift states the same rules):
 1. a row without the header's field count is rejected (fields);
 2. a row whose ALL SPECIES REPORTED is not 1 is skipped (only complete checklists count);
 3. an OBSERVATION DATE that is not a calendar date YYYY-MM-DD is rejected (date);
 4. SAMPLING EVENT IDENTIFIER must be S and 1-11 digits, GROUP IDENTIFIER empty or G and
    1-11 digits, no leading zero (checklist);
 5. an approved row (APPROVED 1) needs a TAXONOMIC ORDER of 1-9 digits and a COMMON NAME (taxon);
 6. an empty region column is a warning, the row not counted (noRegion); a code that is not
    letters, digits and - (up to 16) is rejected (region);
 7. the row counts its checklist (GROUP IDENTIFIER, else SAMPLING EVENT IDENTIFIER) in its
    region and period once; an approved row counts its taxon (COMMON NAME) on it once.
A sampling-event file's rows count checklists only. Frequency = checklists reporting the taxon
divided by checklists, per region and period, rounded half up to 7 decimals in integers.
"""
import argparse
import json
import re
import sys

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
SCALE = 10_000_000
LEVELS = {"country": "COUNTRY CODE", "state": "STATE CODE", "county": "COUNTY CODE"}
CHECKLIST_COLUMNS = ["OBSERVATION DATE", "SAMPLING EVENT IDENTIFIER", "ALL SPECIES REPORTED", "GROUP IDENTIFIER"]
OBSERVATION_COLUMNS = ["TAXONOMIC ORDER", "COMMON NAME", "APPROVED"]
OBSERVATIONS, SAMPLING = "EBD", "sampling-event file"
SUMMARY = "ebd-spark-summary.json"

DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
EVENT = re.compile(r"S[1-9][0-9]{0,10}", re.ASCII)
GROUP = re.compile(r"G[1-9][0-9]{0,10}", re.ASCII)
REGION = re.compile(r"[A-Za-z0-9-]{1,16}", re.ASCII)
ORDER = re.compile(r"[0-9]{1,9}", re.ASCII)

# Row outcomes: kept rows carry (key, region, period, approved, name, order).
KEPT, REJECTED, WARNING, INCOMPLETE, FATAL = "kept", "rejected", "warning", "incomplete", "fatal"


class JobRejected(Exception):
    """The input is wrong (a header, a broken file): the summary says rejected, with file:line."""


class MissingInput(Exception):
    """An input path that names nothing: the summary says failed."""


def period_of(text):
    """The bar-chart period 1-48 of a calendar date YYYY-MM-DD, or None."""
    m = DATE.fullmatch(text)
    if not m:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not 1 <= month <= 12:
        return None
    days = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28,
            31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    if not 1 <= day <= days:
        return None
    return (month - 1) * 4 + min((day - 1) // 7, 3) + 1


def frequency(reported, checklists):
    """reported / checklists rounded half up to 7 decimals, trailing zeros dropped: 0.0962672."""
    if checklists <= 0 or reported <= 0:
        return "0.0"
    quotient = (min(reported, checklists) * 2 * SCALE) // checklists
    rounded = (quotient + 1) // 2
    fraction = str(rounded % SCALE).rjust(7, "0").rstrip("0") or "0"
    return "%d.%s" % (rounded // SCALE, fraction)


def chart_bytes(sample_sizes, rows):
    """A bar-chart file in the layout of an eBird download; rows are (name, 48 counts)."""
    parts = ["\n" * 10, "Frequency of observations in the selected location(s).:\n",
             "Number of taxa: \t%d\n\n" % len(rows),
             "\t" + "".join(m + "\t\t\t\t" for m in MONTHS) + "\n",
             "Sample Size:\t" + "".join("%d.0\t" % n for n in sample_sizes) + "\n\n"]
    for name, counts in rows:
        parts.append(name + "\t" + "".join(frequency(c, n) + "\t" for c, n in zip(counts, sample_sizes)) + "\n")
    parts.append("\n")
    return "".join(parts).encode("utf-8")


class Columns:
    """Where the read columns stand in one file, found by name in its header."""

    def __init__(self, header, kind, level, file):
        names = header.split("\t")
        index = {}
        for i, name in enumerate(names):
            index.setdefault(name, i)
        wanted = CHECKLIST_COLUMNS + [LEVELS[level]] + (OBSERVATION_COLUMNS if kind == OBSERVATIONS else [])
        missing = [c for c in wanted if c not in index]
        if missing:
            other = ("GLOBAL UNIQUE IDENTIFIER" not in index and "SAMPLING EVENT IDENTIFIER" in index) if kind == OBSERVATIONS \
                else "GLOBAL UNIQUE IDENTIFIER" in index
            hint = "" if not other else "; it is a sampling-event file: give it with --sampling" if kind == OBSERVATIONS \
                else "; it is an EBD observations file: give it as an input, not with --sampling"
            shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
            raise JobRejected("%s:1: not an eBird %s header: missing column%s %s%s (expected the %s header with %s; found %d columns: %s)"
                              % (file, kind, "" if len(missing) == 1 else "s", ", ".join(missing), hint, kind,
                                 ", ".join(wanted), len(names), shown))
        self.kind, self.count, self.region_column = kind, len(names), LEVELS[level]
        self.date, self.event = index["OBSERVATION DATE"], index["SAMPLING EVENT IDENTIFIER"]
        self.complete, self.group, self.region = index["ALL SPECIES REPORTED"], index["GROUP IDENTIFIER"], index[LEVELS[level]]
        self.order = index.get("TAXONOMIC ORDER", -1)
        self.name = index.get("COMMON NAME", -1)
        self.approved = index.get("APPROVED", -1)


def classify(line, c, max_line):
    """One data row's outcome: (status, reason, field, value, message, key, region, period, approved, name, order)."""
    none = (None,) * 6
    if "\x00" in line:
        return (FATAL, "nul", "", "", "expected text, found a NUL byte (binary or wrongly encoded file)") + none
    if len(line.encode("utf-8")) > max_line:
        return (FATAL, "long", "", "", "a line longer than %d bytes (the most an EBD line may have): not an EBD file, or a broken one" % max_line) + none
    f = line.split("\t")
    if len(f) != c.count:
        return (REJECTED, "fields", "record", "%d fields" % len(f), "expected %d fields (the header's), found %d" % (c.count, len(f))) + none
    if f[c.complete] != "1":
        return (INCOMPLETE, "", "", "", "") + none
    period = period_of(f[c.date])
    if period is None:
        return (REJECTED, "date", "OBSERVATION DATE", f[c.date], "expected a calendar date YYYY-MM-DD") + none
    group = f[c.group]
    if group and not GROUP.fullmatch(group):
        return (REJECTED, "checklist", "GROUP IDENTIFIER", group, "expected empty, or G and 1–11 digits") + none
    if not EVENT.fullmatch(f[c.event]):
        return (REJECTED, "checklist", "SAMPLING EVENT IDENTIFIER", f[c.event], "expected S and 1–11 digits") + none
    approved = c.kind == OBSERVATIONS and f[c.approved] == "1"
    order, name = None, None
    if approved:
        if not ORDER.fullmatch(f[c.order]):
            return (REJECTED, "taxon", "TAXONOMIC ORDER", f[c.order], "expected 1–9 digits") + none
        order, name = int(f[c.order]), f[c.name]
        if not name or "\ufffd" in name:
            return (REJECTED, "taxon", "COMMON NAME", name, "expected a name (UTF-8 text)") + none
    region = f[c.region]
    if not region:
        return (WARNING, "noRegion", c.region_column, "", "no region at this level: the row is not counted") + none
    if not REGION.fullmatch(region):
        return (REJECTED, "region", c.region_column, region, "expected an eBird region code (letters, digits and -, up to 16)") + none
    reason = "unapproved" if c.kind == OBSERVATIONS and not approved else ""
    return (KEPT, reason, "", "", "", group or f[c.event], region, period, approved, name, order)


class Storage:
    """Reads and writes paths through Hadoop's file systems (local, hdfs://, s3a:// …)."""

    def __init__(self, spark):
        self.jvm = spark._jvm
        self.conf = spark._jsc.hadoopConfiguration()

    def _fs(self, path):
        p = self.jvm.org.apache.hadoop.fs.Path(path)
        return p, p.getFileSystem(self.conf)

    def expand(self, path):
        """The files a path names, as (path, name shown, bytes): itself (shown as given), a
        directory's files or a glob's matches (sorted, local ones without `file:`)."""
        p, fs = self._fs(path)
        statuses = fs.globStatus(p)
        if not statuses:
            raise MissingInput("%s: no such file or directory" % path)
        if len(statuses) == 1 and statuses[0].isFile() and not any(ch in path for ch in "*?[{"):
            return [(statuses[0].getPath().toString(), path, statuses[0].getLen())]
        found = []
        for status in statuses:
            listed = fs.listStatus(status.getPath()) if status.isDirectory() else [status]
            found += [s for s in listed if s.isFile() and not s.getPath().getName().startswith((".", "_"))]
        files = sorted(s.getPath().toString() for s in found)
        sizes = {s.getPath().toString(): s.getLen() for s in found}
        return [(f, f[len("file:"):] if f.startswith("file:") else f, sizes[f]) for f in files]

    def write(self, directory, name, data):
        p, fs = self._fs(directory)
        fs.mkdirs(p)
        out = fs.create(self.jvm.org.apache.hadoop.fs.Path(p, name), True)
        try:
            out.write(bytearray(data))
        finally:
            out.close()


def read_file(sc, path, shown, index, kind, level, max_line):
    """One file's rows as (file index, line, outcome…); its header checked on the driver."""
    lines = sc.textFile(path).zipWithIndex()
    first = lines.filter(lambda p: p[0] != "").take(1)
    if not first:
        raise JobRejected("%s: expected the eBird %s header, found an empty file" % (shown, kind))
    header, header_line = first[0]
    columns = Columns(header.lstrip("\ufeff"), kind, level, shown)

    def rows(partition):
        for line, number in partition:
            if line != "" and number != header_line:
                yield (index, number + 1) + classify(line, columns, max_line)

    return lines.mapPartitions(rows)


def aggregate(spark, args, storage):
    """Reads every input (then the sampling file), writes the charts; returns the summary."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import BooleanType, IntegerType, LongType, StringType, StructField, StructType
    from pyspark.sql.window import Window

    sc = spark.sparkContext
    files = [(f, (n, size), OBSERVATIONS) for p in args.inputs for f, n, size in storage.expand(p)]
    for sampling in args.sampling:
        files += [(f, (n, size), SAMPLING) for f, n, size in storage.expand(sampling)]
    shown = [n[0] for _, n, _ in files]
    parts = [read_file(sc, f, shown[i], i, kind, args.level, args.max_line_bytes) for i, (f, _, kind) in enumerate(files)]
    schema = StructType([StructField("file", IntegerType()), StructField("line", LongType())]
                        + [StructField(n, StringType()) for n in ("status", "reason", "field", "value", "message", "key", "region")]
                        + [StructField("period", IntegerType()), StructField("approved", BooleanType()),
                           StructField("name", StringType()), StructField("order", LongType())])
    rows = spark.createDataFrame(sc.union(parts), schema).persist()

    fatal = rows.filter(F.col("status") == FATAL).orderBy("file", "line").take(1)
    if fatal:
        raise JobRejected("%s:%d: %s" % (shown[fatal[0]["file"]], fatal[0]["line"], fatal[0]["message"]))
    tallies = rows.groupBy("file", "status", "reason").count().collect()
    listed = (rows.filter(F.col("status").isin(REJECTED, WARNING))
              .withColumn("n", F.row_number().over(Window.partitionBy("status", "reason").orderBy("file", "line")))
              .filter(F.col("n") <= args.listed_per_reason).orderBy("file", "line").collect())

    kept = rows.filter(F.col("status") == KEPT)
    checklists = kept.select("key", "region", "period").distinct().persist()
    detected = kept.filter("approved").select("key", "region", "period", "name").distinct().persist()
    orders = dict(kept.filter("approved").groupBy("name").agg(F.min("order")).collect())
    samples = checklists.groupBy("region", "period").count().groupBy("region").agg(
        F.collect_list(F.struct("period", "count")).alias("samples"))
    cells = detected.groupBy("region", "name", "period").count().groupBy("region").agg(
        F.collect_list(F.struct("name", "period", "count")).alias("cells"))
    charts = []
    for row in samples.join(cells, "region", "left").orderBy("region").toLocalIterator():
        sizes = [0] * 48
        for s in row["samples"]:
            sizes[s["period"] - 1] = s["count"]
        taxa = {}
        for cell in row["cells"] or []:
            taxa.setdefault(cell["name"], [0] * 48)[cell["period"] - 1] = cell["count"]
        ordered = sorted(taxa.items(), key=lambda t: (orders[t[0]], t[0].encode("utf-8")))
        name = "barchart-%s.txt" % row["region"]
        storage.write(args.output, name, chart_bytes(sizes, ordered))
        charts.append(name)
    counts = {"regions": len(charts), "taxa": len(orders), "checklists": checklists.count(), "detections": detected.count()}
    return summarize(files, shown, tallies, listed, counts, charts)


def summarize(files, shown, tallies, listed, counts, charts):
    """The summary aggregate-ebd reads: rows per file, named counts, the listed rejects."""
    sources = [{"file": shown[i], "bytes": n[1], "rows": {"read": 0, "kept": 0, "rejected": 0, "warnings": 0}}
               for i, (_, n, _) in enumerate(files)]
    counts.update({"incompleteRows": 0, "unapprovedRows": 0})
    for t in tallies:
        rows = sources[t["file"]]["rows"]
        rows["read"] += t["count"]
        if t["status"] == KEPT:
            rows["kept"] += t["count"]
            if t["reason"] == "unapproved":
                counts["unapprovedRows"] += t["count"]
        elif t["status"] == REJECTED:
            rows["rejected"] += t["count"]
        elif t["status"] == WARNING:
            rows["warnings"] += t["count"]
        elif t["status"] == INCOMPLETE:
            counts["incompleteRows"] += t["count"]
        if t["status"] in (REJECTED, WARNING):
            key = ("rejected." if t["status"] == REJECTED else "warning.") + t["reason"]
            counts[key] = counts.get(key, 0) + t["count"]
    rejects = [{"severity": r["status"], "file": shown[r["file"]], "line": r["line"], "field": r["field"],
                "value": r["value"], "reason": r["message"]} for r in listed]
    return {"status": "ok", "sources": sources, "counts": counts, "rejects": rejects, "charts": charts}


def main(argv):
    parser = argparse.ArgumentParser(description="eBird bar charts from the eBird Basic Dataset on Spark.")
    parser.add_argument("inputs", nargs="+", help="EBD files, directories or globs (any path Spark reads)")
    parser.add_argument("--level", choices=sorted(LEVELS), required=True)
    parser.add_argument("--output", required=True, help="directory for the bar charts and the summary")
    parser.add_argument("--sampling", action="append", default=[],
                        help="a sampling-event file (repeatable): checklists without detections count too")
    parser.add_argument("--listed-per-reason", type=int, default=1000)
    parser.add_argument("--max-line-bytes", type=int, default=1 << 20)
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession
    spark = SparkSession.builder.appName("fieldguide-ebd-barcharts").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    storage = Storage(spark)
    try:
        summary = aggregate(spark, args, storage)
        status = 0
    except JobRejected as rejected:
        summary, status = {"status": "rejected", "failure": str(rejected)}, 1
        print("ebd_barcharts: error: %s" % rejected, file=sys.stderr)
    except MissingInput as missing:
        summary, status = {"status": "failed", "failure": str(missing)}, 2
        print("ebd_barcharts: error: %s" % missing, file=sys.stderr)
    storage.write(args.output, SUMMARY, (json.dumps(summary, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
