@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files a killed run left (a link being swapped, a summary being written) are
/// removed by the next run under its lock, unless the process that wrote them still runs.
@Suite("Leftovers of killed runs", .serialized)
struct LeftoverTests {
    @Test("names of temporary files: the writer's pid, nothing else")
    func names() {
        #expect(Leftover.pid(in: "current.tmp-1234") == 1234)
        #expect(Leftover.pid(in: "aircraft.fgb.tmp-77") == 77)
        #expect(Leftover.pid(in: ".20261122T031500Z.json.tmp-4321-998877") == 4321)
        #expect(Leftover.pid(in: ".latest.json.tmp-9") == 9)
        for other in ["current", "notes.tmp-abc", "x.tmp-", "x.tmp-12-", "x.tmp-12-a", "x.tmp-12x", "builds"] {
            #expect(Leftover.pid(in: other) == nil, "\(other)")
        }
    }

    @Test("stale temporary files are gone after the next run; a live writer's and other files are untouched")
    func cleaned() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let fm = FileManager.default
        let dead = try deadPID(), live = getpid()
        let stale = ["current.tmp-\(dead)", "aircraft.fgb.tmp-\(dead)", ".aircraft.fgb.tmp-\(dead)-12345",
                     "runs/.20200101T000000Z.json.tmp-\(dead)-998877", "runs/.latest.json.tmp-\(dead)"]
        let kept = ["current.tmp-\(live)", "runs/.20200101T000001Z.json.tmp-\(live)-1", "notes.tmp-abc", "runs/notes.txt"]
        for name in stale + kept {
            if name.hasPrefix("current.") {
                try fm.createSymbolicLink(atPath: h.output + "/" + name, withDestinationPath: "builds/nowhere")
            } else {
                try "partial".write(toFile: h.output + "/" + name, atomically: false, encoding: .utf8)
            }
        }
        let result = try h.run()
        #expect(result.status == 0, "\(result.log)")
        for name in stale { #expect(!fm.fileExists(atPath: h.output + "/" + name) && (try? fm.destinationOfSymbolicLink(atPath: h.output + "/" + name)) == nil, "\(name)") }
        for name in kept { #expect((try? fm.attributesOfItem(atPath: h.output + "/" + name)) != nil, "\(name)") }
        try Published.verify(h.output)
    }
}
