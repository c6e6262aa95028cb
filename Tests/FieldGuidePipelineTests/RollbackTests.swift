import FieldGuide
import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

@Suite("pipeline rollback")
struct RollbackTests {
    func rollback(_ h: NightlyHarness) throws -> (status: Int32, log: String) {
        let result = try TestPaths.run(program: TestPaths.executable("pipeline"),
                                       ["rollback", TestPaths.packageRoot.path + "/pipelines/nightly.yaml", "--output", h.output])
        return (result.status, result.stdout + result.stderr)
    }

    func link(_ h: NightlyHarness, _ name: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/" + name)
    }

    @Test("refused without a previous build; then current swaps back, previous names the build rolled back from, twice undoes it")
    func swap() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let none = try rollback(h)
        #expect(none.status == 2)
        #expect(none.log.contains("nothing is published yet (no current build): nothing to roll back"), "\(none.log)")

        let first = try h.run()
        #expect(first.status == 0)
        let only = try rollback(h)
        #expect(only.status == 2)
        #expect(only.log.contains("no previous build to roll back to (\(first.summary!.build!) is the only build published)"), "\(only.log)")
        #expect(link(h, "current") == first.summary?.build)

        // A second build: one owner renamed.
        try h.renameOwner()
        let second = try h.run()
        #expect(second.summary?.status == .published)
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").aircraft(registration: "N250JT")?.name == "NORTHWIND CHARTER INC")

        let back = try rollback(h)
        #expect(back.status == 0, "\(back.log)")
        #expect(back.log.contains("pipeline: rolled back: current → \(first.summary!.build!) (was \(second.summary!.build!)); previous → \(second.summary!.build!)"))
        #expect(link(h, "current") == first.summary?.build && link(h, "previous") == second.summary?.build)
        // The names beside current follow it.
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").aircraft(registration: "N250JT")?.name == "NORTHWIND CHARTER CORP")
        #expect(FileManager.default.fileExists(atPath: h.output + "/" + second.summary!.build! + "/aircraft.fgb"))

        let again = try rollback(h)
        #expect(again.status == 0)
        #expect(link(h, "current") == second.summary?.build && link(h, "previous") == first.summary?.build)
    }

    @Test("previous naming a build that is gone, or a link out of builds/, is refused and nothing changes")
    func brokenPrevious() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let current = link(h, "current")
        try FileManager.default.createSymbolicLink(atPath: h.output + "/previous", withDestinationPath: "builds/20200101T000000Z")
        let missing = try rollback(h)
        #expect(missing.status == 2)
        #expect(missing.log.contains("builds/20200101T000000Z: previous names a build that is missing or incomplete; nothing was changed"), "\(missing.log)")
        try FileManager.default.removeItem(atPath: h.output + "/previous")
        try FileManager.default.createSymbolicLink(atPath: h.output + "/previous", withDestinationPath: "/etc")
        let outside = try rollback(h)
        #expect(outside.status == 2)
        #expect(outside.log.contains("previous points at /etc, not at a build in builds/; nothing was changed"), "\(outside.log)")
        #expect(link(h, "current") == current)
    }
}
