import Foundation
import Testing
import TestSupport

/// `Benchmarks/bench-summary`, which ends `make bench` with issue 18's targets: it reads the
/// figures back from the lines the benchmarks print (copied here from a real run, in their
/// exact form), takes the verdicts they printed and judges the figures nothing else does.
@Suite("make bench's summary of issue 18's targets")
struct BenchSummaryTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("Benchmarks/bench-summary")

    /// The lines of a real `make bench` the summary reads, among others it must pass over.
    static let log = """
        == FAA build on full-size data (bench-data/faa) as the nightly runs it, 5 rounds alternating with DuckDB's bare load
        round 1: DuckDB bare load  1.47 s wall,  2.08 s CPU,  610 MB peak
        time: whole FAA build     2.349 s wall, 3.96 s CPU, 248 MB peak RSS (highest round)
        time: DuckDB bare load    1.26 s wall, 1.8 s CPU, 610 MB peak RSS (ACFTREF + MASTER, all columns text, its start included)
        time: whole FAA build / DuckDB: 1.86× wall, 0.41× peak RSS (target 0.5× each)
        time: ingest-faa, good MASTER  1.41 s wall, 136 MB peak RSS; every row rejected  3.73 s wall, 96 MB peak RSS, 1,580,000 report rows (medians of 3)
        rejects: ingest-faa peak RSS, every row rejected / good MASTER: 0.71× (target ≤ 1.0×: met)
        time: nightly, first run      4.24 s wall, 272884 KB peak RSS
        time: nightly, unchanged rerun 0.04 s wall, 32264 KB peak RSS
        time: fieldguide diff 0.19 s wall, 0.19 s user, 363100 KB peak RSS
        diff: met the 0.5 s target (wall)
        time: nightly over input/, unchanged rerun 0.07 s wall
        aircraft(registration:)                         100,000     127 ns     382 ns     152 ns    100.0%    < 2 µs  ok
        aircraft(registration:) + .info                 100,000    1.04 µs    1.99 µs    1.04 µs    100.0%    < 1 µs  over
        lookup + 6 fields: 440 ns here, 4.39 µs in SQLite (medians, same keys, same run, 10 alternating rounds; rounds 0.097-0.103×): 0.100× (target ≤ 0.10×: MISSED)
        GPX 10 MB                10.0 MB       88,970 observations    0.11 s ( 0.11 s CPU)    87.2 MB/s  peak RSS   25.3 MB
        plist 10 MB              10.0 MB       23,364 observations    0.10 s ( 0.10 s CPU)    96.3 MB/s  peak RSS   25.3 MB
        XMP 10 MB                10.0 MB            1 observations    0.04 s ( 0.04 s CPU)   222.4 MB/s  peak RSS   25.6 MB
        GPX 100 MB, round 1     100.0 MB      882,217 observations    1.10 s ( 1.10 s CPU)    90.8 MB/s  peak RSS   28.6 MB
        GPX 100 MB: exports readers 90.8 MB/s (1.10 s CPU), xmllint --stream --noout 90.5 MB/s (1.08 s CPU), medians of 3; CPU share 0.98× (target ≥ 0.5×: met)
        GPX 100 MB: ingest-exports end to end 21.4 MB/s, 4.67 s (4.52 s CPU), exit 0; CPU share of xmllint 0.39× (target ≥ 0.25×: met)
        plist 100 MB, round 1   100.0 MB      232,596 observations    1.11 s ( 1.11 s CPU)    90.0 MB/s  peak RSS   28.6 MB
        plist 100 MB: exports readers 90.0 MB/s (1.11 s CPU), xmllint --stream --noout 71.2 MB/s (1.36 s CPU), medians of 3; CPU share 1.22× (target ≥ 0.5×: met)
        plist 100 MB: ingest-exports end to end 40.7 MB/s, 2.46 s (2.37 s CPU), exit 0; CPU share of xmllint 0.51× (target ≥ 0.25×: met)
        XMP 100 MB, round 1     100.0 MB            1 observations    0.79 s ( 0.79 s CPU)   127.2 MB/s  peak RSS   48.6 MB
        XMP 100 MB: exports readers 141.2 MB/s (0.71 s CPU), xmllint --stream --noout 142.2 MB/s (0.67 s CPU), medians of 3; CPU share 0.44× (target ≥ 0.5×: MISSED)
        XMP 100 MB: ingest-exports end to end 163.9 MB/s, 0.61 s (0.58 s CPU), exit 0; CPU share of xmllint 1.31× (target ≥ 0.25×: met)

        """

    static func summary(of log: String) throws -> (status: Int32, rows: [String], stderr: String) {
        let path = try TestPaths.temporaryDirectory("bench-summary").appendingPathComponent("bench.log")
        try Data(log.utf8).write(to: path)
        let result = try TestPaths.run(program: script, [path.path])
        return (result.status, result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }, result.stderr)
    }

    @Test("every target judged from its figure: ratios, latencies, seconds, the flat memory")
    func judged() throws {
        let (status, rows, _) = try Self.summary(of: Self.log)
        #expect(status == 0)
        #expect(rows == [
            "== Issue 18: the targets in this run",
            "MISSED whole FAA build / DuckDB, wall 1.86× (target ≤ 0.5×)",
            "met whole FAA build / DuckDB, peak RSS 0.41× (target ≤ 0.5×)",
            // fieldguide-bench's own verdict on the unrounded ratio, not the printed 0.100.
            "MISSED lookup + six fields / SQLite, medians 0.100× (target ≤ 0.10×)",
            "MISSED lookup + .info, median 1.04 µs (target ≤ 1 µs)",
            "MISSED export readers / xmllint --stream, CPU GPX 0.98×, plist 1.22×, XMP 0.44× (target ≥ 0.5×)",
            "met ingest-exports end to end / xmllint, CPU GPX 0.39×, plist 0.51×, XMP 1.31× (target ≥ 0.25×)",
            "MISSED export readers, peak RSS at 10 and 100 MB GPX 25.3 → 28.6 MB, plist 25.3 → 28.6 MB, XMP 25.6 → 48.6 MB (target the 100 MB files ≤ 1.5× the 10 MB ones)",
            "met ingest-faa peak RSS, all rejected / good 0.71× (target ≤ 1.0×)",
            "MISSED nightly, first run at full size 4.24 s (target ≤ 2.0 s)",
            "met nightly, unchanged rerun 0.04 s (target ≤ 0.1 s)",
            "met fieldguide diff of two full-size builds 0.19 s (target ≤ 0.5 s)",
        ], "\(rows.joined(separator: "\n"))")
    }

    @Test("a figure the run did not print reads not measured; a median under its target with the p99 over is met")
    func notMeasured() throws {
        let log = Self.log.split(separator: "\n")
            .filter { !$0.contains("DuckDB") && !$0.hasPrefix("time: nightly") && !$0.contains("ingest-exports") && !$0.hasPrefix("rejects:") }
            .map { $0.hasPrefix("aircraft(registration:) + .info") ? $0.replacingOccurrences(of: "1.04 µs    1.99", with: "967 ns    1.99")
                .replacingOccurrences(of: "< 1 µs  over", with: "< 1 µs  p99 over") : String($0) }
            .joined(separator: "\n")
        let (status, rows, _) = try Self.summary(of: log)
        #expect(status == 0)
        #expect(rows.contains("- whole FAA build / DuckDB, wall not measured (no DuckDB) (target ≤ 0.5×)"), "\(rows)")
        #expect(rows.contains("- nightly, first run at full size not measured (target ≤ 2.0 s)"), "\(rows)")
        #expect(rows.contains("- ingest-exports end to end / xmllint, CPU not measured (target ≥ 0.25×)"), "\(rows)")
        #expect(rows.contains("- ingest-faa peak RSS, all rejected / good not measured (target ≤ 1.0×)"), "\(rows)")
        // The rejects held in memory again (the code before the spool: 592 MB against 137).
        let held = try Self.summary(of: Self.log.replacingOccurrences(of: "0.71× (target ≤ 1.0×: met)", with: "4.32× (target ≤ 1.0×: MISSED)")).rows
        #expect(held.contains("MISSED ingest-faa peak RSS, all rejected / good 4.32× (target ≤ 1.0×)"), "\(held)")
        // A stage that failed, or ran slower than a quarter of xmllint, misses.
        let slow = try Self.summary(of: Self.log.replacingOccurrences(of: "exit 0; CPU share of xmllint 0.51× (target ≥ 0.25×: met)",
                                                                     with: "exit 0; CPU share of xmllint 0.03× (target ≥ 0.25×: MISSED)")).rows
        #expect(slow.contains("MISSED ingest-exports end to end / xmllint, CPU GPX 0.39×, plist 0.03×, XMP 1.31× (target ≥ 0.25×)"), "\(slow)")
        #expect(rows.contains("met lookup + .info, median 967 ns (target ≤ 1 µs)"), "\(rows)")
    }

    @Test("a log that cannot be read: exit 2, naming it")
    func unreadable() throws {
        let missing = try TestPaths.temporaryDirectory("bench-summary").appendingPathComponent("none.log").path
        let result = try TestPaths.run(program: Self.script, [missing])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bench-summary: cannot read \(missing)"), "\(result.stderr)")
    }
}
