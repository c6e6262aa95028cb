import FieldGuide
import FieldGuideArtifact
import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// The history writer on its own: events, the bound, determinism, crafted files.
@Suite("Registry history writer")
struct RegistrationHistoryWriterTests {
    /// Two aircraft artifacts built by the executables: `input/faa`, and the same with N4477's
    /// owner changed and N81 gone.
    static func bundles(in directory: String) throws -> (AircraftBundle, AircraftBundle) {
        var lines = try FAAFixtures.lines("MASTER.txt")
        lines = lines.filter { !$0.hasPrefix("81   ,") }.map { $0.replacingOccurrences(of: "ORTEGA LUIS ", with: "ORTEGA LUZ  ") }
        let changed = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)])
        var paths: [String] = []
        for (name, sources) in [("a", FAAFixtures.inputDirectory), ("b", changed)] {
            for (tool, arguments) in [("ingest-faa", [sources, "--output", "\(directory)/\(name)/stage"]),
                                      ("emit-aircraft", ["\(directory)/\(name)/stage", "--output", "\(directory)/\(name)"])] {
                let run = try TestPaths.run(tool, arguments)
                #expect(run.status == 0, "\(run.stderr)")
            }
            paths.append("\(directory)/\(name)/aircraft.fgb")
        }
        return (try AircraftBundle(path: paths[0]), try AircraftBundle(path: paths[1]))
    }

    @Test("events between two builds, carried forward, newest 32 per N-number, byte-identical for the same inputs")
    func events() throws {
        let directory = try TestPaths.temporaryDirectory("history-writer").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (a, b) = try Self.bundles(in: directory)
        let first = directory + "/h1.fgb"
        try RegistrationHistoryWriter.write(previous: nil, old: nil, new: a, build: "20261101T031500Z", to: first)
        let h1 = try RegistrationHistory(path: first)
        #expect(h1.eventCount == 0 && h1.buildCount == 1 && h1.firstBuild == "20261101T031500Z")

        let second = directory + "/h2.fgb"
        let counts = try RegistrationHistoryWriter.write(previous: h1, old: a, new: b, build: "20261102T031500Z", to: second)
        #expect(counts.added == 2 && counts.kept == 2)
        let h2 = try RegistrationHistory(path: second)
        #expect(h2.allEvents.map { "\($0.nNumber) \($0.kind.name) \($0.before)|\($0.after)" } == ["N4477 owner ORTEGA LUIS|ORTEGA LUZ", "N81 deregistered |"])
        #expect(h2.events(of: "n4477").first?.date == "2026-11-02")
        // The same inputs, the same bytes.
        try RegistrationHistoryWriter.write(previous: h1, old: a, new: b, build: "20261102T031500Z", to: directory + "/h2-again.fgb")
        #expect(FileManager.default.contents(atPath: second) == FileManager.default.contents(atPath: directory + "/h2-again.fgb"))

        // 40 more builds flipping N4477's owner: its newest 32 events stay, N81's one as well.
        var previous = h2
        for night in 3...42 {
            let path = directory + "/h\(night).fgb"
            let (old, new) = night % 2 == 1 ? (b, a) : (a, b)
            try RegistrationHistoryWriter.write(previous: previous, old: old, new: new, build: String(format: "202612%02dT031500Z", night - 2), to: path)
            previous = try RegistrationHistory(path: path)
        }
        // 41 events each (N81 registered and deregistered in turn): the oldest 9 dropped.
        #expect(previous.buildCount == 42 && previous.events(of: "N4477").count == HistorySchema.eventsPerNumber)
        #expect(previous.events(of: "N4477").first?.build == "20261209T031500Z")
        #expect(previous.events(of: "N81").map(\.kind).suffix(2) == [.registered, .deregistered] && previous.events(of: "N81").count == 32)
        #expect(previous.eventCount == 64)
    }

    @Test("a crafted history (every checksum valid) gives a typed error or wrong text, never a crash")
    func crafted() throws {
        let directory = try TestPaths.temporaryDirectory("history-crafted").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (a, b) = try Self.bundles(in: directory)
        let path = directory + "/history.fgb"
        try RegistrationHistoryWriter.write(previous: nil, old: a, new: b, build: "20261102T031500Z", to: path)
        let variants = try ArtifactSurgery.wordVariants(of: path, words: 1_000, values: [0xFFFF_FFF0, 0x00FF_FFFF, 1, 0])
        #expect(Set(variants.map(\.section)) == ["EKEY", "EVNT", "HINF", "STRS"])
        let crafted = directory + "/crafted.fgb"
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: URL(fileURLWithPath: crafted))
            for verification in [ArtifactFile.Verification.full, .headerOnly] {
                guard let history = try? RegistrationHistory(path: crafted, verification: verification) else { continue }
                opened += 1
                _ = (history.allEvents.map(\.date), history.events(of: "N4477"), history.events(of: "N81"), history.firstBuild, history.buildCount)
                // Carried forward into a new history: the writer takes what it reads as text.
                try RegistrationHistoryWriter.write(previous: history, old: b, new: a, build: "20261103T031500Z", to: directory + "/next.fgb")
            }
        }
        #expect(opened > variants.count)
    }
}
