import ArgumentParser
import BenchSupport
import FieldGuide
import FieldGuideArtifact
import Foundation

/// The manufacturer index's figures: its size against its sources (gzip -9 both), how fast it
/// opens, and search and capture-match latency over queries drawn from the index itself.
struct IndexBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-bench",
        abstract: "Measure the manufacturer index: gzip size against its sources, open time, search and match latency.",
        discussion: """
        Targets: gzip -9 of the index no larger than gzip -9 of its sources together (ACFTREF.txt, \
        ENGINE.txt, icao-types.json, one stream); a .headerOnly open within 0.1 ms; a search's \
        99th percentile within 1 ms. Queries are written as a person or a recognizer would: \
        type names, manufacturer and model, designators, manufacturer prefixes, in any case, \
        hyphens dropped or spaced, one in ten with a letter missing.
        """)

    @Argument(help: "The manufacturer index (emit-aircraft-index wrote it from the sources below, without MASTER).")
    var index = "output/bench/aircraft-index.fgb"

    @Option(parsing: .upToNextOption, help: "The files it was built from, for the size comparison (ACFTREF.txt ENGINE.txt icao-types.json).")
    var sources: [String] = []

    @Option(help: "Timed searches (and as many capture matches).") var searches = 10_000
    @Option(help: "Timed opens per verification mode.") var opens = 200
    @Option(help: "Seed for drawing the queries.") var seed: UInt64 = 7
    @Option(help: "Print this many of the slowest searches (thread CPU time), with their text.") var slowest = 0

    static let openTarget = 100_000.0
    static let searchTarget = 1_000_000.0

    func run() throws {
        let opened: AircraftIndex
        do { opened = try AircraftIndex(path: index) } catch { throw ValidationError("cannot open \(index): \(error)") }
        if !sources.isEmpty { try sizes() }
        openTimes()
        var rng = SplitMix64(seed: seed)
        let queries = (0..<searches).map { _ in Self.query(opened, &rng) }
        let overhead = Timer.overhead()
        let probe = LatencyProbe(batch: 1, timerOverhead: overhead, warmUp: 500)
        let search = probe.measure(queries) { (try? opened.search($0).count) ?? 0 }
        print(row("search (\(grouped(queries.count)) queries)", search.summary, target: Self.searchTarget)
              + "   \(String(format: "%.1f", Double(search.total) / Double(queries.count))) results each")
        print(row("search, thread CPU time", cpuTimes(queries) { (try? opened.search($0).count) ?? 0 }, target: Self.searchTarget)
              + "   (the wait while other processes run left out)")
        let captures = (0..<searches).map { _ in Self.capture(opened, &rng) }
        let match = probe.measure(captures) { opened.match(designator: $0.0, manufacturer: $0.1, model: $0.2).candidates.count }
        print(row("capture match", match.summary, target: nil))
        print("examples: " + queries.prefix(6).map { "\"\($0)\"" }.joined(separator: ", "))
        if slowest > 0 {
            let timed = queries.map { query -> (Double, String) in
                let start = Timer.threadCPU()
                _ = try? opened.search(query)
                return (Double(Timer.threadCPU() &- start), query)
            }
            for (ns, query) in timed.sorted(by: { $0.0 > $1.0 }).prefix(slowest) { print("slow: \(duration(nanoseconds: ns))  \"\(query)\"") }
        }
    }

    /// gzip -9 of the index and of the sources (one stream, as `cat … | gzip -9`).
    private func sizes() throws {
        let indexBytes = try gzipSize([index]), sourceBytes = try gzipSize(sources)
        let raw = (try? FileManager.default.attributesOfItem(atPath: index)[.size] as? Int) ?? 0
        let verdict = indexBytes <= sourceBytes ? "within" : "OVER"
        print("size: index \(grouped(raw)) bytes, gzip -9 \(grouped(indexBytes)); sources gzip -9 together \(grouped(sourceBytes)) "
              + "(\(sources.map { ($0 as NSString).lastPathComponent }.joined(separator: " + "))): \(verdict) the target, "
              + String(format: "%.1f%% of it", 100 * Double(indexBytes) / Double(sourceBytes)))
    }

    private func openTimes() {
        for (name, mode) in [(".headerOnly", ArtifactFile.Verification.headerOnly), (".full", .full)] {
            var samples: [Double] = []
            for _ in 0..<opens {
                let start = Timer.now()
                let opened = try? AircraftIndex(path: index, verification: mode)
                samples.append(Double(Timer.now() &- start))
                precondition(opened != nil, "the index opened once and not again")
            }
            print(row("open \(name)", Summary(samples), target: mode == .headerOnly ? Self.openTarget : nil))
        }
    }

    /// Per-call thread CPU time of `operation` over `inputs` (after 500 untimed calls).
    private func cpuTimes<Input>(_ inputs: [Input], _ operation: (Input) -> Int) -> Summary {
        var total = 0
        for input in inputs.prefix(500) { total &+= operation(input) }
        let samples = inputs.map { input -> Double in
            let start = Timer.threadCPU()
            total &+= operation(input)
            return Double(Timer.threadCPU() &- start)
        }
        precondition(total >= 0)
        return Summary(samples)
    }

    private func row(_ name: String, _ s: Summary, target: Double?) -> String {
        let verdict = target.map { s.p99 <= $0 ? "   (target \(duration(nanoseconds: $0)): met)" : "   (target \(duration(nanoseconds: $0)): MISSED)" } ?? ""
        return "\(name.rightPadded(30)) median \(duration(nanoseconds: s.median).leftPadded(9))   p99 \(duration(nanoseconds: s.p99).leftPadded(9))" + verdict
    }

    private func gzipSize(_ files: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cat \"$@\" | gzip -9 | wc -c", "sh"] + files
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let n = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ValidationError("gzip of \(files) failed")
        }
        return n
    }

    /// A query as someone would type it, from a random entity of the index.
    static func query(_ index: AircraftIndex, _ rng: inout SplitMix64) -> String {
        var text: String
        switch rng.below(10) {
        case 0..<3:
            let type = index.type(at: rng.below(index.typeCount))!
            text = type.name.isEmpty ? type.designator : type.name
        case 3..<7:
            let model = index.model(at: rng.below(index.modelCount))!
            text = (model.manufacturer.split(separator: " ").first.map(String.init) ?? "") + " " + model.model
        case 7:
            text = index.type(at: rng.below(index.typeCount))!.designator
        default:
            let name = index.manufacturer(at: rng.below(index.manufacturerCount))!.name
            text = String(name.prefix(4 + rng.below(4)))
        }
        switch rng.below(4) {
        case 0: text = text.lowercased()
        case 1: text = text.replacingOccurrences(of: "-", with: "")
        case 2: text = text.replacingOccurrences(of: "-", with: " ")
        default: break
        }
        let words = text.split(separator: " ").map(String.init)
        if rng.below(10) == 0, let word = words.first(where: { $0.count >= 5 && $0.allSatisfy(\.isLetter) }) {
            var letters = Array(word)
            letters.remove(at: rng.below(letters.count))
            text = text.replacingOccurrences(of: word, with: String(letters))
        }
        return text.trimmingCharacters(in: .whitespaces).isEmpty ? "CESSNA" : text
    }

    /// A capture as the recognizer writes it: a designator, the manufacturer's first word, a model.
    static func capture(_ index: AircraftIndex, _ rng: inout SplitMix64) -> (String, String, String) {
        let model = index.model(at: rng.below(index.modelCount))!
        let designator = index.type(at: rng.below(index.typeCount))!.designator
        let manufacturer = model.manufacturer.split(separator: " ").first.map { $0.capitalized } ?? ""
        return (designator, manufacturer, model.model)
    }
}

IndexBench.main()
