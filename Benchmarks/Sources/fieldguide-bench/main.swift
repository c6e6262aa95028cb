import ArgumentParser
import BenchSupport
import FieldGuide
import FieldGuideArtifact
import Foundation

/// Measures how fast an aircraft artifact opens and answers lookups through `AircraftBundle`.
struct FieldGuideBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldguide-bench",
        abstract: "Measure open time and lookup latency of an aircraft artifact.",
        discussion: """
        Opens the artifact repeatedly with each verification mode, then looks up random \
        existing keys (from the FAA files the artifact was built from) one at a time and \
        prints median, 99th percentile and mean per operation next to the targets: open under \
        1 ms, lookup under 2 µs, registry search under 1 ms (a page of 20 and the total). A lookup \
        includes obtaining the record, not decoding its fields; \
        the "+ .info" row also decodes every field of the registration (target under 1 µs). \
        The "+ 6 fields" rows do the same work here and in SQLite (the system libsqlite3, a \
        WITHOUT ROWID table in memory, one prepared statement reused), on the same keys, in \
        alternating rounds: look up and decode six fields into Strings; target: at most a tenth \
        of SQLite's median. The "floor" row, in the same rounds, loads one byte from a random \
        line of the registration summaries (RSMB): the wait for memory that a lookup on a \
        registry larger than the caches cannot avoid.
        """)

    @Argument(help: "The aircraft artifact that emit-aircraft wrote.")
    var artifact = "output/bench/aircraft.fgb"

    @Option(help: "MASTER.txt the artifact was built from: the N-numbers and Mode S addresses to look up.")
    var master = "bench-data/faa/MASTER.txt"

    @Option(name: .customLong("acftref"), help: "ACFTREF.txt: model codes and manufacturer names (default: beside --master).")
    var aircraftReference: String?

    @Option(help: "ENGINE.txt: engine codes (default: beside --master).")
    var engine: String?

    @Option(help: "Timed lookups per operation.")
    var lookups = 100_000

    @Option(help: "Timed registry searches per kind of query.")
    var searches = 10_000

    @Option(help: "Timed opens per verification mode.")
    var opens = 200

    @Option(help: "Lookups per timed batch; 1 times every call on its own, more divides a batch's time by its size.")
    var batch = 1

    @Option(help: "Seed for drawing the keys.")
    var seed: UInt64 = 1

    @Option(help: "Run only the rows whose name contains this text (\".info\", \"6 fields\"): one row under callgrind.")
    var only: String?

    /// Whether row `name` runs (`--only`).
    func runs(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

    /// Targets from the product requirements, in nanoseconds.
    static let openTarget = 1_000_000.0
    static let lookupTarget = 2_000.0
    static let searchTarget = 1_000_000.0
    /// The full registration record (`+ .info`).
    static let infoTarget = 1_000.0
    /// A lookup reading six fields, against SQLite doing the same (median against median).
    static let sqliteRatioTarget = 0.1

    func validate() throws {
        guard lookups >= 1 else { throw ValidationError("--lookups must be at least 1") }
        guard opens >= 1 else { throw ValidationError("--opens must be at least 1") }
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
        guard searches >= 1 else { throw ValidationError("--searches must be at least 1") }
    }

    func run() throws {
        let bundle: AircraftBundle
        do { bundle = try AircraftBundle(path: artifact) } catch {
            throw BenchError("cannot open \(artifact): \(error)")
        }
        // The file a link names (a nightly's `aircraft.fgb` is a link into its build), not the link.
        let resolved = URL(fileURLWithPath: artifact).resolvingSymlinksInPath().path
        let size = (try? FileManager.default.attributesOfItem(atPath: resolved)[.size] as? Int) ?? 0
        let keys = try LookupKeys(master: master, aircraftReference: aircraftReference, engine: engine)
        let overhead = Timer.overhead()
        let warmUp = min(lookups, 10_000)

        print("artifact  \(artifact) (\(grouped(size)) bytes, format \(bundle.formatVersion))")
        print("contents  \(grouped(bundle.registrationCount)) registrations, \(grouped(bundle.modelCount)) models, "
            + "\(grouped(bundle.engineCount)) engines, \(grouped(bundle.manufacturerCount)) manufacturers")
        print("keys      \(grouped(keys.registrations.count)) N-numbers and \(grouped(keys.modeSHex.count)) Mode S addresses "
            + "from \(master); \(grouped(keys.modelCodes.count)) model codes, \(grouped(keys.manufacturerPrefixes.count)) "
            + "manufacturer prefixes, \(grouped(keys.engineCodes.count)) engine codes")
        print("timing    clock_gettime(CLOCK_MONOTONIC), resolution \(Timer.resolution) ns, \(duration(nanoseconds: overhead)) "
            + "per reading pair subtracted; " + (batch == 1 ? "each call timed on its own" : "batches of \(batch) calls, per call")
            + "; \(grouped(warmUp)) untimed warm-up calls per lookup row")
        print("")

        var rows: [Row] = []
        let path = artifact
        func open(_ name: String, target: Double? = Self.openTarget, _ operation: () throws -> AnyObject) throws {
            guard runs(name) else { return }
            rows.append(Row(name: name, calls: opens, summary: try measureOpens(operation), found: "", target: target))
        }
        try open("open(.headerOnly)") { try AircraftBundle(path: path, verification: .headerOnly) }
        // The container alone: mapping, header and section table, without the bundle's tables.
        try open("  of which ArtifactFile(.headerOnly)", target: nil) {
            try ArtifactFile(path: path, expectedKind: AircraftSchema.kind, verification: .headerOnly)
        }
        try open("open(.full)") { try AircraftBundle(path: path, verification: .full) }

        var rng = SplitMix64(seed: seed)
        let probe = LatencyProbe(batch: batch, timerOverhead: overhead, warmUp: warmUp)
        let registrations = LookupKeys.sample(keys.registrations, count: lookups, &rng)
        let modelCodes = LookupKeys.sample(keys.modelCodes, count: lookups, &rng)
        let modeS = LookupKeys.sample(keys.modeSHex, count: lookups, &rng)
        let engineCodes = LookupKeys.sample(keys.engineCodes, count: lookups, &rng)
        let prefixes = LookupKeys.sample(keys.manufacturerPrefixes, count: lookups, &rng)

        func lookup(_ name: String, _ inputs: [String], target: Double? = Self.lookupTarget,
                    counting: Bool = false, _ operation: (String) -> Int) {
            guard runs(name) else { return }
            guard !inputs.isEmpty else { return print("skipped \(name): no keys") }
            let (summary, total) = probe.measure(inputs, operation)
            let found = counting
                ? String(format: "%.1f avg", Double(total) / Double(inputs.count))
                : String(format: "%.1f%%", 100 * Double(total) / Double(inputs.count))
            rows.append(Row(name: name, calls: inputs.count, summary: summary, found: found, target: target))
        }
        lookup("aircraft(registration:)", registrations) { bundle.aircraft(registration: $0) == nil ? 0 : 1 }
        // The part of a registration lookup spent before touching the artifact.
        lookup("  of which normalizedRegistration", registrations, target: nil) {
            AircraftBundle.normalizedRegistration($0) == nil ? 0 : 1
        }
        lookup("aircraft(registration:) + .info", registrations, target: Self.infoTarget) {
            bundle.aircraft(registration: $0).map { $0.info.nNumber.isEmpty ? 0 : 1 } ?? 0
        }
        // The same work in SQLite and here: look up, decode six fields into Strings; and the
        // floor under both, one load from a random line of the summaries, in the same rounds.
        var sixRatios: [Double]?
        if [SixFields.ours, SixFields.theirs, SixFields.floor].contains(where: runs) {
            let compared = try SixFields.compare(bundle, loading: keys.registrations, timing: registrations, probe: probe, seed: seed)
            rows += compared.rows
            sixRatios = compared.ratios
        }
        lookup("model(code:)", modelCodes) { bundle.model(code: $0) == nil ? 0 : 1 }
        lookup("aircraft(modeSHex:)", modeS) { bundle.aircraft(modeSHex: $0) == nil ? 0 : 1 }
        lookup("engine(code:)", engineCodes) { bundle.engine(code: $0) == nil ? 0 : 1 }
        lookup("manufacturers(prefix:) 4 letters", prefixes, counting: true) { bundle.manufacturers(prefix: $0).count }
        // The same searches returning one record: the search alone, without a record per match.
        lookup("  of which the search (limit 1)", prefixes, target: nil, counting: true) { bundle.manufacturers(prefix: $0, limit: 1).count }

        // Registry searches: a page of 20 records (not decoded) and the total; "found" is the average total.
        for (name, queries) in RegistryQueries(keys, count: searches, &rng).sets where runs("registrations: " + name) && !queries.isEmpty {
            let (summary, total) = LatencyProbe(batch: 1, timerOverhead: overhead, warmUp: min(queries.count, 1_000)).measure(queries) {
                (try? bundle.registrations(matching: $0, limit: 20))?.total ?? 0
            }
            rows.append(Row(name: "registrations: " + name, calls: queries.count, summary: summary,
                            found: String(format: "%.1f avg", Double(total) / Double(max(queries.count, 1))), target: Self.searchTarget))
        }

        Row.printTable(rows)
        if let sixRatios { SixFields.printRatio(rows, ratios: sixRatios, target: Self.sqliteRatioTarget) }
        if rows.contains(where: { $0.found.hasSuffix("%") && $0.found != "100.0%" }) {
            print("\nwarning: some keys were not found: the artifact was not built from \(master)?")
        }
    }

    /// Runs `operation` (an open) `opens` times after one untimed run and summarizes its times.
    ///
    /// Only the open is timed: the object is released (the file unmapped) after the clock is read.
    private func measureOpens(_ operation: () throws -> AnyObject) throws -> Summary {
        _ = try operation()
        var samples: [Double] = []
        for _ in 0..<opens {
            let start = Timer.now()
            let opened = try operation()
            let elapsed = Timer.now() &- start
            withExtendedLifetime(opened) {}
            samples.append(Double(elapsed))
        }
        return Summary(samples)
    }
}

/// One line of the result table.
struct Row {
    var name: String
    /// Operations timed (the summary has one sample per batch of them).
    var calls: Int
    var summary: Summary
    /// Share of keys found (lookups) or average result count (prefix searches).
    var found: String
    /// The target for the 99th percentile and the median, in nanoseconds, or nil for none.
    var target: Double?

    /// `ok` when the 99th percentile meets the target, `p99 over` when only the median does.
    var verdict: String {
        guard let target else { return "" }
        if summary.p99 < target { return "ok" }
        return summary.median < target ? "p99 over" : "over"
    }

    static func printTable(_ rows: [Row]) {
        let header = ["operation".rightPadded(46), "n".leftPadded(8), "median".leftPadded(10), "p99".leftPadded(10),
                      "mean".leftPadded(10), "found".leftPadded(9), "target".leftPadded(9), " "]
        print(header.joined(separator: " "))
        print(String(repeating: "-", count: 116))
        for row in rows {
            let s = row.summary
            let target = row.target.map { "< " + duration(nanoseconds: $0).replacingOccurrences(of: ".00", with: "") } ?? "-"
            let cells = [row.name.rightPadded(46), grouped(row.calls).leftPadded(8), duration(nanoseconds: s.median).leftPadded(10),
                         duration(nanoseconds: s.p99).leftPadded(10), duration(nanoseconds: s.mean).leftPadded(10),
                         row.found.leftPadded(9), target.leftPadded(9), " " + row.verdict]
            print(cells.joined(separator: " "))
        }
    }
}

FieldGuideBench.main()
