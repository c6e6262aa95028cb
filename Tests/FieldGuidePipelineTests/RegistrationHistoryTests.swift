import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// The registry history across nightly runs, and DEREG/RESERVED refused through the pipeline.
@Suite("Registry history and status files through the nightly pipeline", .serialized)
struct RegistrationHistoryTests {
    /// MASTER's lines with field `field` of the row whose N-number is `mark` set to `value`,
    /// padded to the field's width.
    static func setting(_ lines: [String], _ mark: String, field: Int, to value: String) -> [String] {
        lines.map { line in
            var fields = line.components(separatedBy: ",")
            guard fields[0].trimmingCharacters(in: .whitespaces) == mark else { return line }
            fields[field] = value.padding(toLength: max(value.count, fields[field].count), withPad: " ", startingAt: 0)
            return fields.joined(separator: ",")
        }
    }

    static func writeMaster(_ lines: [String], to harness: NightlyHarness) throws {
        try Data.faaFile(lines).write(to: URL(fileURLWithPath: harness.sources + "/faa/MASTER.txt"))
    }

    @Test("three nightly runs with changed MASTER: each build's history carries the last one's forward")
    func threeRuns() throws {
        let harness = try NightlyHarness.copyOfInput()
        defer { harness.remove() }
        let first = try harness.run()
        #expect(first.status == 0, "\(first.log)")
        let history1 = try RegistrationHistory(path: harness.output + "/history.fgb")
        #expect(history1.eventCount == 0 && history1.buildCount == 1)
        let build1 = try #require(harness.published().current).replacingOccurrences(of: "builds/", with: "")
        let one = try TestPaths.run("fieldguide", ["history", "N4477", "--bundle", harness.output + "/aircraft.fgb"])
        #expect(one.stdout.hasPrefix("history: 1 build, \(build1) to \(build1)\n"), "\(one.stdout)")

        // Run 2: a new owner, a status change, a new registration.
        var master = try FAAFixtures.lines("MASTER.txt")
        master = Self.setting(master, "4477", field: 6, to: "ORTEGA LUISA")
        master = Self.setting(master, "250JT", field: 20, to: "7")
        master.append(master.last!.replacingOccurrences(of: "18   ,WX-18", with: "777DR,WX-77"))
        try Self.writeMaster(master, to: harness)
        let second = try harness.run()
        #expect(second.status == 0, "\(second.log)")
        let build2 = try #require(harness.published().current).replacingOccurrences(of: "builds/", with: "")
        let history2 = try RegistrationHistory(path: harness.output + "/history.fgb")
        #expect(history2.buildCount == 2 && history2.firstBuild == build1 && history2.lastBuild == build2)
        #expect(history2.allEvents.map { "\($0.nNumber) \($0.kind.name) \($0.before)→\($0.after)" } == [
            "N250JT status V→7", "N4477 owner ORTEGA LUIS→ORTEGA LUISA", "N777DR registered →WEATHERWATCH INC",
        ])

        // Run 3: the new registration leaves (accepted shrink), the owner moves.
        master.removeLast()
        master = Self.setting(master, "4477", field: 7, to: "9 CALLE MAR")
        try Self.writeMaster(master, to: harness)
        let third = try harness.run(["--accept", "shrink:MASTER"])
        #expect(third.status == 0, "\(third.log)")
        let build3 = try #require(harness.published().current).replacingOccurrences(of: "builds/", with: "")
        let history3 = try RegistrationHistory(path: harness.output + "/history.fgb")
        #expect(history3.buildCount == 3)
        #expect(history3.events(of: "N4477").map { "\($0.build) \($0.kind.name) \($0.after)" } == [
            "\(build2) owner ORTEGA LUISA", "\(build3) address 9 CALLE MAR, SAN JUAN PR 00901",
        ])
        #expect(history3.events(of: "N777DR").map(\.kind) == [.registered, .deregistered])
        // The previous build's history is its own file, unchanged.
        #expect(try RegistrationHistory(path: harness.output + "/previous/history.fgb").eventCount == 3)

        let text = try TestPaths.run("fieldguide", ["history", "N4477", "N777DR", "--bundle", harness.output + "/aircraft.fgb"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "history: 3 builds, \(build1) to \(build3)")
        #expect(lines.contains { $0.hasSuffix("owner         ORTEGA LUIS → ORTEGA LUISA") })
        #expect(lines.contains { $0.contains("DEREG  cancelled: Certificate of Registration revoked; last owner ISLA GYRO CLUB, PONCE PR") })
        #expect(lines.contains { $0.contains("deregistered  left MASTER; last owner WEATHERWATCH INC") })
        #expect(lines.contains { $0.contains("DEREG  cancelled: exported to CANADA") })
        let invalid = try TestPaths.run("fieldguide", ["history", "N0", "--bundle", harness.output + "/aircraft.fgb"])
        #expect(invalid.status == 2 && invalid.stderr.contains("N0: not a US N-number"), "\(invalid.stderr)")

        // A damaged history is not carried forward: the next build's starts again, and publishes.
        let current = try #require(harness.published().current)
        let historyPath = harness.output + "/" + current + "/history.fgb"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: historyPath)))
        let strings = try #require(try ArtifactFile(path: historyPath).sections.first { $0.tag == "STRS" })
        bytes[Int(strings.offset) + 12] ^= 0xFF
        try FileManager.default.removeItem(atPath: historyPath)   // a hard link may share the cache's inode
        try Data(bytes).write(to: URL(fileURLWithPath: historyPath))
        try Self.writeMaster(Self.setting(master, "4477", field: 6, to: "ORTEGA L"), to: harness)
        let fourth = try harness.run()
        #expect(fourth.status == 0 && fourth.log.contains("the history starts again at builds/"), "\(fourth.log)")
        let history4 = try RegistrationHistory(path: harness.output + "/history.fgb")
        #expect(history4.buildCount == 1 && history4.allEvents.map(\.kind) == [.owner])
    }

    @Test("a DEREG or RESERVED with the wrong header: the run fails at file:1, exit 1, the published build untouched")
    func wrongHeader() throws {
        let harness = try NightlyHarness.copyOfInput()
        defer { harness.remove() }
        #expect(try harness.run().status == 0)
        let before = harness.published()
        for (name, header) in [("DEREG.txt", "N-NUMBER,SERIAL NUMBER,"), ("RESERVED.txt", "N-NUMBER,REGISTRANT,STREET,")] {
            let path = harness.sources + "/faa/" + name
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try Data.faaFile([header, "1A   ,X,"]).write(to: URL(fileURLWithPath: path))
            let run = try harness.run()
            #expect(run.status == 1, "\(run.log)")
            #expect(run.log.contains("\(name):1: expected column"), "\(run.log)")
            let after = harness.published()
            #expect(after.current == before.current && after.aircraft == before.aircraft)
            try original.write(to: URL(fileURLWithPath: path))
        }
    }
}
