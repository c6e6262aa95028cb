@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The pipeline never follows a link out of its output directory: a link planted where it
/// keeps a directory is refused before anything is deleted, and a link met while removing is
/// unlinked, its target untouched.
@Suite("Links planted in the output directory", .serialized)
struct OutputLinkTests {
    /// A copy of input/ with one published build.
    func published() throws -> NightlyHarness {
        let h = try NightlyHarness.copyOfInput()
        let first = try h.run()
        #expect(first.status == 0, "\(first.log)")
        return h
    }

    @Test("a directory the pipeline keeps, replaced by a link to elsewhere: exit 2 naming the link; the target untouched",
          arguments: [".pipeline", ".pipeline/nightly", ".pipeline/nightly/staging", ".pipeline/nightly/stages", "builds", "runs"])
    func plantedDirectory(_ location: String) throws {
        let h = try published()
        defer { h.remove() }
        let victim = h.root + "/victim"
        // The real directory moves to the victim (with a file of the victim's own), a link takes its place.
        try FileManager.default.moveItem(atPath: h.output + "/" + location, toPath: victim)
        try "keep me\n".write(toFile: victim + "/precious.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: h.output + "/" + location, withDestinationPath: victim)
        let before = Published.listing(victim)
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/current")

        let result = try h.run()
        #expect(result.status == 2, "\(result.log)")
        #expect(result.log.contains("\(h.output)/\(location): a symbolic link (to \(victim)) where the pipeline keeps a directory of its own"),
                "\(result.log)")
        #expect(Published.listing(victim) == before)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/current") == current)
        if location == "runs" {
            // No summary is written through the link, and none is claimed.
            #expect(!result.log.contains("summary in runs/"), "\(result.log)")
            #expect(result.log.contains("pipeline: run summary not recorded: \(h.output)/runs: a symbolic link"), "\(result.log)")
        }
        // Once the link is gone the pipeline runs again.
        try FileManager.default.removeItem(atPath: h.output + "/" + location)
        if location == ".pipeline/nightly/staging" || location == "runs" {
            let next = try h.run()
            #expect(next.status == 0, "\(next.log)")
        }
    }

    @Test("links inside: a stale staging entry, an old build and a folder in it are unlinked, their targets untouched")
    func linksInside() throws {
        let h = try published()
        defer { h.remove() }
        let fm = FileManager.default
        let victims = (1...3).map { h.root + "/victim\($0)" }
        for victim in victims {
            try fm.createDirectory(atPath: victim, withIntermediateDirectories: true)
            try "keep me\n".write(toFile: victim + "/precious.txt", atomically: true, encoding: .utf8)
        }
        let before = victims.map(Published.listing)
        // A stale staging entry that is a link; old builds (oldest first, pruned past keep 3)
        // one of which is a link and one holds a link.
        try fm.createSymbolicLink(atPath: h.output + "/.pipeline/nightly/staging/20200101T000000Z", withDestinationPath: victims[0])
        try fm.createSymbolicLink(atPath: h.output + "/builds/00000000T000000Z", withDestinationPath: victims[1])
        try fm.createDirectory(atPath: h.output + "/builds/00000000T000001Z", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: h.output + "/builds/00000000T000001Z/reports", withDestinationPath: victims[2])
        try fm.createDirectory(atPath: h.output + "/builds/00000000T000002Z", withIntermediateDirectories: true)

        // A new MASTER row, so the run publishes and prunes.
        let master = h.sources + "/faa/MASTER.txt"
        let rows = try String(contentsOfFile: master, encoding: .utf8)
        try (rows + "99999" + rows.components(separatedBy: "\r\n").filter { !$0.isEmpty }.last!.dropFirst(5) + "\r\n")
            .write(toFile: master, atomically: true, encoding: .utf8)
        let result = try h.run()
        #expect(result.status == 0, "\(result.log)")
        #expect(result.summary?.status == .published)
        #expect(victims.map(Published.listing) == before)
        let builds = try fm.contentsOfDirectory(atPath: h.output + "/builds").sorted()
        #expect(builds.count == 3 && !builds.contains { $0.hasPrefix("00000000T00000") && $0 != "00000000T000002Z" }, "\(builds)")
        #expect(try fm.contentsOfDirectory(atPath: h.output + "/.pipeline/nightly/staging").isEmpty)
        try Published.verify(h.output)
    }

    @Test("a link planted as current or a stable name is replaced by the swap, never written through")
    func plantedStableName() throws {
        let h = try published()
        defer { h.remove() }
        let victim = h.root + "/victim.fgb"
        try "not an artifact\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: h.output + "/aircraft.fgb")
        try FileManager.default.createSymbolicLink(atPath: h.output + "/aircraft.fgb", withDestinationPath: victim)
        // An unchanged run repairs the stable names; the victim keeps its bytes.
        let result = try h.run()
        #expect(result.status == 0, "\(result.log)")
        #expect(result.summary?.status == .unchanged)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/aircraft.fgb") == "current/aircraft.fgb")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not an artifact\n")
        try Published.verify(h.output)
    }
}
