import ArgumentParser
import BenchSupport
import Foundation

/// Writes full-size synthetic FAA releasable files for benchmarking the pipeline.
struct GenerateFAAData: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-faa-data",
        abstract: "Write full-size synthetic FAA releasable files (ACFTREF, ENGINE, MASTER, DEREG, RESERVED).",
        discussion: """
        The files have the exact shape of the FAA download: a UTF-8 byte order mark, the FAA's \
        headers, fixed-width fields padded with spaces (numbers with zeros), a comma after every \
        field and CR LF line ends. Every row is valid for ingest-faa. The same seed and counts \
        always give the same bytes.
        """)

    @Argument(help: "Directory for ACFTREF.txt, ENGINE.txt, MASTER.txt, DEREG.txt and RESERVED.txt (created if missing).")
    var directory = "bench-data/faa"

    @Option(help: "ACFTREF rows (aircraft models).")
    var models = 94_069

    @Option(help: "ENGINE rows (engine models).")
    var engines = 4_751

    @Option(name: .customLong("master-rows"), help: "MASTER rows (registrations, each a distinct N-number).")
    var masterRows = 316_000

    @Option(name: .customLong("dereg-rows"), help: "DEREG rows (deregistered aircraft; some N-numbers have several).")
    var deregRows = 400_000

    @Option(name: .customLong("reserved-rows"), help: "RESERVED rows (reserved N-numbers, one each).")
    var reservedRows = 150_000

    @Flag(name: .customLong("status-only"), help: "Write only DEREG.txt and RESERVED.txt (beside existing files of the same seed).")
    var statusOnly = false

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 20_250_508

    func validate() throws {
        guard (1...1_000_000).contains(models) else { throw ValidationError("--models must be 1…1,000,000, found \(models)") }
        guard (2...19_000).contains(engines) else { throw ValidationError("--engines must be 2…19,000, found \(engines)") }
        guard (0...NNumber.count).contains(masterRows) else {
            throw ValidationError("--master-rows must be 0…\(grouped(NNumber.count)) (every valid N-number), found \(masterRows)")
        }
        guard (0...2_000_000).contains(deregRows) else { throw ValidationError("--dereg-rows must be 0…2,000,000, found \(deregRows)") }
        guard (0...NNumber.count).contains(reservedRows) else {
            throw ValidationError("--reserved-rows must be 0…\(grouped(NNumber.count)) (every valid N-number), found \(reservedRows)")
        }
    }

    func run() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw GeneratorError("cannot create \(directory): \(error.localizedDescription)")
        }
        let clock = ContinuousClock()
        let started = clock.now
        var reference = ReferenceGenerator(seed: seed)

        // With --status-only the reference files are made again (the status files draw their
        // models from them) but go nowhere.
        try write("ENGINE.txt", header: FAAHeaders.engine, discard: statusOnly) { file throws(GeneratorError) in
            try reference.writeEngines(rows: engines, to: &file)
        }
        try write("ACFTREF.txt", header: FAAHeaders.aircraftReference, discard: statusOnly) { file throws(GeneratorError) in
            try reference.writeAircraftReference(rows: models, to: &file)
        }
        if !statusOnly {
            var master = MasterGenerator(reference: reference.data, seed: seed ^ 0x4D41_5354_4552_0000)  // "MASTER"
            try write("MASTER.txt", header: FAAHeaders.master) { file throws(GeneratorError) in
                try master.write(rows: masterRows, to: &file)
            }
        }
        var status = StatusGenerator(reference: reference.data, seed: seed ^ 0x5354_4154_5553)  // "STATUS"
        if deregRows > 0 {
            try write("DEREG.txt", header: FAAStatusHeaders.deregistered) { file throws(GeneratorError) in
                try status.writeDeregistered(rows: deregRows, to: &file)
            }
        }
        if reservedRows > 0 {
            try write("RESERVED.txt", header: FAAStatusHeaders.reserved) { file throws(GeneratorError) in
                try status.writeReserved(rows: reservedRows, to: &file)
            }
        }
        print("done in \(seconds(clock.now - started)) (seed \(seed))")
    }

    /// Creates `name` in the output directory, lets `body` fill it, and prints what was written.
    private func write(_ name: String, header: [String], discard: Bool = false,
                       _ body: (inout FixedWidthFile) throws(GeneratorError) -> Void) throws(GeneratorError) {
        let clock = ContinuousClock()
        let started = clock.now
        let path = discard ? "/dev/null" : (directory as NSString).appendingPathComponent(name)
        var file = try FixedWidthFile(path: path, header: header)
        try body(&file)
        let bytes = try file.close()
        let columns = [path, "\(grouped(file.lines)) rows", "\(grouped(bytes)) bytes", seconds(clock.now - started)]
        print(columns[0].rightPadded(28), columns[1].leftPadded(13), columns[2].leftPadded(19), columns[3].leftPadded(8))
    }
}

/// A duration in seconds with two decimals (`0.42 s`).
func seconds(_ duration: Duration) -> String {
    let (s, attoseconds) = duration.components
    return String(format: "%.2f s", Double(s) + Double(attoseconds) / 1e18)
}

GenerateFAAData.main()
