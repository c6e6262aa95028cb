import FieldGuide
import FieldGuideArtifactWriter
import FieldGuideCore
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// The registry history in aircraft.sqlite: record-history runs before export-sqlite, so the
/// history a build publishes is the one its database holds.
@Suite("Registry history in aircraft.sqlite", .serialized)
struct SQLiteHistoryTests {
    static let historyQuery = "SELECT n_number, build, date, kind, before, after, before_name, after_name FROM history ORDER BY rowid"

    /// `builds/NAME` → `NAME`.
    static func name(_ build: String?) -> String { (build ?? "").replacingOccurrences(of: "builds/", with: "") }

    @Test("two nightly runs with SQLITE=1 and a changed MASTER: the second build's history is its database's history table")
    func twoRuns() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let first = try h.run(["--set", "SQLITE=1"])
        #expect(first.status == 0, "\(first.log)")
        let db = h.output + "/aircraft.sqlite"
        // No build before: the history starts here, empty; the kinds' lookup is there anyway.
        #expect(try sqliteRows(db, "SELECT count(*) FROM history") == [["0"]])
        #expect(try sqliteRows(db, "SELECT code FROM history_kind ORDER BY rowid").map { $0[0] }
                == ["registered", "deregistered", "owner", "status", "address", "model"])
        #expect(try RegistrationHistory(path: h.output + "/history.fgb").buildCount == 1)

        // Run 2: a status change, a new owner, a model change, a new registration.
        var master = try FAAFixtures.lines("MASTER.txt")
        master = RegistrationHistoryTests.setting(master, "250JT", field: 20, to: "7")
        master = RegistrationHistoryTests.setting(master, "4477", field: 6, to: "ORTEGA LUISA")
        master = RegistrationHistoryTests.setting(master, "2", field: 2, to: "2100200")
        master.append(master.last!.replacingOccurrences(of: "18   ,WX-18", with: "777DR,WX-77"))
        try RegistrationHistoryTests.writeMaster(master, to: h)
        let second = try h.run(["--set", "SQLITE=1"])
        #expect(second.status == 0 && second.summary?.status == .published, "\(second.log)")
        #expect(h.statuses(second.summary)["record-history"] == .ran && h.statuses(second.summary)["export-sqlite"] == .ran)
        let build2 = Self.name(h.published().current)
        let date = "\(build2.prefix(4))-\(build2.dropFirst(4).prefix(2))-\(build2.dropFirst(6).prefix(2))"
        #expect(try sqliteRows(db, Self.historyQuery) == [
            ["N2", build2, date, "model", "2100100", "2100200", "BLUEHERON AIRCRAFT CO BH-200", "BLUEHERON AIRCRAFT CO BH-900 JET"],
            ["N250JT", build2, date, "status", "V", "7", "Valid Registration", "Sale reported"],
            ["N4477", build2, date, "owner", "ORTEGA LUIS", "ORTEGA LUISA", "", ""],
            ["N777DR", build2, date, "registered", "", "WEATHERWATCH INC", "", ""],
        ])
        // The table is the published history.fgb's, event for event.
        let history = try RegistrationHistory(path: h.output + "/history.fgb")
        #expect(history.lastBuild == build2 && history.eventCount == 4)
        #expect(try sqliteRows(db, "SELECT count(*) FROM history h JOIN history_kind k ON k.code = h.kind") == [["4"]])
        let manifest = try Manifest.decode(from: Data(contentsOf: URL(fileURLWithPath: h.output + "/manifest.json")))
        #expect(manifest.artifact(named: "aircraft.sqlite")?.counts["history"] == 4)

        // The same sources again: unchanged; record-history copied the published history (the
        // same bytes), so export-sqlite was skipped.
        let historyBytes = try Data(contentsOf: URL(fileURLWithPath: h.output + "/history.fgb"))
        let third = try h.run(["--set", "SQLITE=1"])
        #expect(third.summary?.status == .unchanged, "\(third.log)")
        #expect(h.statuses(third.summary)["record-history"] == .ran && h.statuses(third.summary)["export-sqlite"] == .skipped)
        #expect(third.log.contains("record-history: the artifact is the published one"), "\(third.log)")
        #expect(Self.name(h.published().current) == build2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.output + "/history.fgb")) == historyBytes)
    }

    @Test("rolled back: the next run's history carries the build current points at then, not the one rolled back from")
    func rollback() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run(["--set", "SQLITE=1"]).status == 0)
        let build1 = Self.name(h.published().current)
        try RegistrationHistoryTests.writeMaster(RegistrationHistoryTests.setting(try FAAFixtures.lines("MASTER.txt"), "4477", field: 6,
                                                                                  to: "ORTEGA LUISA"), to: h)
        #expect(try h.run(["--set", "SQLITE=1"]).status == 0)
        let rolled = try RollbackTests().rollback(h)
        #expect(rolled.status == 0 && Self.name(h.published().current) == build1, "\(rolled.log)")
        // The rolled-back build's history (no events) is what the database shows now.
        #expect(try sqliteRows(h.output + "/aircraft.sqlite", "SELECT count(*) FROM history") == [["0"]])

        // The same changed MASTER publishes again as a new build, its event named after it.
        let again = try h.run(["--set", "SQLITE=1"])
        #expect(again.summary?.status == .published, "\(again.log)")
        let build3 = Self.name(h.published().current)
        #expect(try sqliteRows(h.output + "/aircraft.sqlite", "SELECT build, kind, after FROM history") == [[build3, "owner", "ORTEGA LUISA"]])
        let history = try RegistrationHistory(path: h.output + "/history.fgb")
        #expect(history.buildCount == 2 && history.firstBuild == build1 && history.lastBuild == build3)
    }

    @Test("record-history and export-sqlite on their own: no previous build, byte-stable exports, a damaged artifact or history refused")
    func stages() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let artifacts = try h.emittedAircraft()
        // No previous build: a history with no events, covering this build alone.
        let first = try TestPaths.run("record-history", [artifacts, "--build", "20261101T031500Z", "--output", h.root + "/history"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("0 events from builds/20261101T031500Z, 0 kept"), "\(first.stderr)")
        let history = try RegistrationHistory(path: h.root + "/history/history.fgb")
        #expect(history.eventCount == 0 && history.buildCount == 1 && history.firstBuild == "20261101T031500Z")

        // Two exports with one artifact and one history: the same bytes; an empty history table.
        for out in ["a", "b"] {
            let result = try TestPaths.run("export-sqlite", [artifacts, "--history", h.root + "/history/history.fgb", "--output", h.root + "/" + out])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: h.root + "/a/aircraft.sqlite"))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: h.root + "/b/aircraft.sqlite"))))
        #expect(try sqliteRows(h.root + "/a/aircraft.sqlite", "SELECT count(*) FROM history") == [["0"]])

        // A damaged history: export-sqlite exits 1 naming it, the earlier database stays.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: h.root + "/history/history.fgb"))
        bytes[bytes.count - 4] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: h.root + "/damaged-history.fgb"))
        let refused = try TestPaths.run("export-sqlite", [artifacts, "--history", h.root + "/damaged-history.fgb", "--output", h.root + "/a"])
        #expect(refused.status == 1 && refused.stderr.contains("damaged-history.fgb"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.root + "/a/aircraft.sqlite")) == a)

        // A damaged new artifact: record-history exits 1 naming it; a missing one exits 2.
        let damaged = try h.damagedCopy(of: artifacts)
        let bad = try TestPaths.run("record-history", [damaged, "--build", "20261102T031500Z", "--output", h.root + "/history"])
        #expect(bad.status == 1 && bad.stderr.contains("damaged/aircraft.fgb"), "\(bad.stderr)")
        #expect(try RegistrationHistory(path: h.root + "/history/history.fgb").firstBuild == "20261101T031500Z")
        let missing = try TestPaths.run("record-history", [h.root + "/nowhere", "--build", "X", "--output", h.root + "/history"])
        #expect(missing.status == 2 && missing.stderr.contains("nowhere"), "\(missing.stderr)")
    }

    @Test("record-history with a published artifact that does not open or is gone: the history goes on, with a warning that this build's changes are missing")
    func publishedArtifactUnreadable() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let artifacts = try h.emittedAircraft()
        let fm = FileManager.default
        #expect(try TestPaths.run("record-history", [artifacts, "--build", "20261101T031500Z", "--output", h.root + "/first"]).status == 0)
        // A published build (no manifest, so not "the same artifact") whose aircraft.fgb is damaged.
        let published = h.root + "/published"
        try fm.createDirectory(atPath: published, withIntermediateDirectories: true)
        try fm.copyItem(atPath: h.root + "/first/history.fgb", toPath: published + "/history.fgb")
        try fm.copyItem(atPath: try h.damagedCopy(of: artifacts) + "/aircraft.fgb", toPath: published + "/aircraft.fgb")
        for (case_, found) in [("damaged", "published/aircraft.fgb: "), ("missing", "published/aircraft.fgb: missing")] {
            if case_ == "missing" { try fm.removeItem(atPath: published + "/aircraft.fgb") }
            let run = try TestPaths.run("record-history", [artifacts, "--published", published, "--build", "20261102T031500Z", "--output", h.root + "/" + case_])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("warning: ") && run.stderr.contains(found)
                    && run.stderr.contains("the changes of builds/20261102T031500Z are not recorded"), "\(case_): \(run.stderr)")
            let history = try RegistrationHistory(path: h.root + "/" + case_ + "/history.fgb")
            #expect(history.firstBuild == "20261101T031500Z" && history.eventCount == 0, "\(case_)")
        }
    }

    @Test("pipeline files: {run} and {published} resolve and name nothing else; publish history names a stage output")
    func definitionChecks() throws {
        func error(_ extra: String = "", stages: String) -> String? {
            do {
                _ = try PipelineDefinition.parse(DefinitionTests.yaml(stages: stages, extra: extra), path: "p.yaml")
                return nil
            } catch { return error.description }
        }
        let stage = "  - { name: a, tool: x, inputs: [faa], outputs: [h.fgb], args: [\"{faa}\", [--published, \"{published}\"], \"{run}\"] }"
        #expect(error(stages: stage + "\npublish: { history: a/h.fgb }") == nil)
        #expect(error(stages: stage + "\npublish: { history: a/other.fgb }")?.contains("p.yaml:") == true)
        #expect(error(stages: stage + "\npublish: { history: a/other.fgb }")?.contains("expected a declared stage output (stage/file), found 'a/other.fgb'") == true)
        #expect(error("  run: { path: \"y\" }", stages: stage)?.contains("cannot name a source") == true)
        #expect(error(stages: "  - { name: published, tool: x, inputs: [faa], args: [\"{faa}\"] }")?.contains("cannot name a stage") == true)

        // Resolved in a run's layout: the run id, the published build (absent: the group is left out),
        // both in the fingerprint's template.
        let definition = try PipelineDefinition.parse(DefinitionTests.yaml(stages: stage), path: "p.yaml")
        let plan = try PipelinePlan(definition, parameters: ["SOURCES": TestPaths.input.path])
        let first = plan.stages(in: StageLayout(cache: "/c", staging: "/s", run: "R1"), toolDirectory: "/bin")[0]
        #expect(first.arguments == [TestPaths.input.path + "/faa", "R1"])
        #expect(first.template.contains("{run=R1}") && first.template.contains("[--published {published=none}]"))
        let later = plan.stages(in: StageLayout(cache: "/c", staging: "/s", run: "R2", published: "/o/builds/R1"), toolDirectory: "/bin")[0]
        #expect(later.arguments == [TestPaths.input.path + "/faa", "--published", "/o/builds/R1", "R2"])
        #expect(later.template.contains("[--published {published=R1}]"))
    }
}

extension NightlyHarness {
    /// Runs the nightly once and returns emit-aircraft's cached output directory (aircraft.fgb, manifest.json).
    func emittedAircraft() throws -> String {
        let run = try run()
        #expect(run.status == 0, "\(run.log)")
        return output + "/.pipeline/nightly/stages/emit-aircraft"
    }

    /// `ROOT/damaged`: a copy of `artifacts` whose aircraft.fgb has one byte flipped near its end.
    func damagedCopy(of artifacts: String) throws -> String {
        let damaged = root + "/damaged"
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: true)
        var artifact = try Data(contentsOf: URL(fileURLWithPath: artifacts + "/aircraft.fgb"))
        artifact[artifact.count - 10] ^= 0xFF
        try artifact.write(to: URL(fileURLWithPath: damaged + "/aircraft.fgb"))
        try FileManager.default.copyItem(atPath: artifacts + "/manifest.json", toPath: damaged + "/manifest.json")
        return damaged
    }
}
