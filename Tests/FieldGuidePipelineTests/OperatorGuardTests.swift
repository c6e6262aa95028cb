import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

@Suite("Operator guards: warn and refuse levels, floors, joins, freshness")
struct OperatorGuardTests {
    func manifest(master rows: Int, withoutModel: Int = 0, sha: String = "a") -> Manifest {
        Manifest(format: .init(major: 1, minor: 0), tool: .init(name: "t", version: "1"), built: nil, artifacts: [
            .init(file: "aircraft.fgb", kind: "ACFT", bytes: 0, sha256: "", sections: [],
                  sources: [.init(file: "MASTER.txt", bytes: 0, sha256: sha, rows: .init(read: rows, kept: rows, rejected: 0))],
                  counts: ["registrations": rows, "registrationsWithoutModel": withoutModel, "registrationsWithoutEngine": 0]),
        ])
    }

    @Test("two levels: past warn the guard holds with a warning, past refuse it refuses; the old messages stay")
    func levels() {
        let spec = GuardSpec(shrink: ["MASTER": GuardLimit(warn: 0.005, refuse: 0.02)])
        let before = manifest(master: 300_000)
        #expect(Guards.check(spec, new: manifest(master: 298_000), published: before) == [
            .init(name: "shrink MASTER", held: true,
                  detail: "300,000 → 298,000 rows read (−0.7%), more than the 0.5% warning threshold; refused past 2%", warned: true),
        ])
        let refused = Guards.check(spec, new: manifest(master: 290_000), published: before)
        #expect(refused.map(\.outcome) == ["refused"])
        #expect(refused[0].detail == "300,000 → 290,000 rows read (−3.3%), more than the 2% allowed")
        #expect(Guards.check(spec, new: manifest(master: 299_990), published: before).map(\.outcome) == ["held"])
    }

    @Test("min_rows: an absolute floor, on the first build too; a missing source reads 0 rows")
    func floor() {
        let spec = GuardSpec(minRows: ["MASTER": GuardLimit(warn: 280_000, refuse: 250_000), "DEREG": 1])
        let results = Guards.check(spec, new: manifest(master: 260_000), published: nil)
        #expect(results == [
            .init(name: "min_rows DEREG", held: false, detail: "0 rows read, fewer than the 1 required"),
            .init(name: "min_rows MASTER", held: true,
                  detail: "260,000 rows read, fewer than the 280,000 warning threshold; refused past 250,000", warned: true),
        ])
        #expect(Guards.check(spec, new: manifest(master: 316_000), published: nil)[1].detail == "316,000 rows read, at least 250,000")
        #expect(Guards.check(spec, new: manifest(master: 249_999), published: nil)[1].outcome == "refused")
    }

    @Test("join: the share of registrations without an ACFTREF model, from the aircraft artifact's counts")
    func join() {
        let spec = GuardSpec(join: ["model": GuardLimit(warn: 0.01, refuse: 0.05)])
        let held = Guards.check(spec, new: manifest(master: 316_000, withoutModel: 120), published: nil)
        #expect(held == [.init(name: "join model", held: true, detail: "120 of 316,000 registrations without an ACFTREF model (0.038%), within 5%")])
        let warned = Guards.check(spec, new: manifest(master: 1_000, withoutModel: 20), published: nil)
        #expect(warned.map(\.outcome) == ["warned"])
        let refused = Guards.check(spec, new: manifest(master: 1_000, withoutModel: 60), published: nil)
        #expect(refused[0].detail == "60 of 1,000 registrations without an ACFTREF model (6%), more than the 5% allowed")
    }

    @Test("freshness: a stem keeps its date while its content stays; new content starts again; a touched file does not")
    func freshness() throws {
        let directory = try TestPaths.temporaryDirectory("freshness").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/sources.json"
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try SourceFreshness(path: path, now: start).update(with: manifest(master: 10, sha: "a"))
        #expect(first["MASTER"]?.days == 0)
        let later = try SourceFreshness(path: path, now: start.addingTimeInterval(9.25 * 86_400)).update(with: manifest(master: 10, sha: "a"))
        #expect(later["MASTER"]?.days == 9.25)
        #expect(later["MASTER"]?.since == RunRecorder.iso8601(start))
        let spec = GuardSpec(freshness: ["MASTER": GuardLimit(warn: 3, refuse: 8)])
        let stale = Guards.check(spec, new: manifest(master: 10), published: nil, unchangedDays: later)
        #expect(stale == [.init(name: "freshness MASTER", held: false,
                                detail: "MASTER unchanged for 9.3 days (since \(RunRecorder.iso8601(start))), more than the 8 days allowed")])
        let changed = try SourceFreshness(path: path, now: start.addingTimeInterval(10 * 86_400)).update(with: manifest(master: 10, sha: "b"))
        #expect(changed["MASTER"]?.days == 0)
        // A state file that is not JSON is started afresh rather than failing the run.
        try "garbage".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try SourceFreshness(path: path, now: start).update(with: manifest(master: 10))["MASTER"]?.days == 0)
    }

    @Test("pipeline file: guard limits checked at load time with file:line:column")
    func definitionErrors() {
        func error(_ guards: String) -> String? {
            let text = DefinitionTests.yaml(stages: """
                  - name: ingest-faa
                    inputs: [faa]
                    args: ["{faa}"]
                """, extra: "guards:\n" + guards)
            do {
                _ = try PipelineDefinition.parse(text, path: "p.yaml")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error("  min_rows: { MASTER: 250000 }\n  join: { model: {warn: 0.01, refuse: 0.05} }\n  freshness: { MASTER: {warn: 3} }") == nil)
        #expect(error("  min_rows: { MASTER: {warn: 1, refuze: 2} }")?.contains("p.yaml:6:33: guards.min_rows.MASTER: unknown key 'refuze'; expected one of refuse, warn") == true)
        #expect(error("  join: { models: 0.05 }")?.contains("p.yaml:6:11: guards.join: unknown key 'models'; expected one of engine, model") == true)
        #expect(error("  shrink: { MASTER: {warn: 0.05, refuse: 0.02} }")?
            .contains("guards.shrink.MASTER: expected warn at most refuse (a warning comes before a refusal), found warn 0.05, refuse 0.02") == true)
        #expect(error("  min_rows: { MASTER: {warn: 100, refuse: 250} }")?.contains("expected warn at least refuse") == true)
        #expect(error("  min_rows: { MASTER: 2.5 }")?.contains("p.yaml:6:23: guards.min_rows.MASTER: expected a whole number of rows, 0 or more, found 2.5") == true)
        #expect(error("  freshness: { MASTER: 0 }")?.contains("expected a number of days above 0, found 0") == true)
        #expect(error("  rejects: { MASTER: lots }")?.contains("p.yaml:6:22: guards.rejects.MASTER: expected a number or a parameter such as \"${MASTER_MIN_ROWS}\" (found 'lots')") == true)
        #expect(error("  min_rows: { MASTER: \"${FLOOR}\" }")?.contains("guards.min_rows.MASTER: unknown parameter '${FLOOR}'; parameters are SOURCES") == true)
    }

    @Test("parameters in guard limits: set at run time, an empty one leaves its threshold unset, a bad one is a usage error")
    func parameters() throws {
        let spec = GuardSpec(minRows: ["MASTER": GuardLimit(references: ["refuse": "${FLOOR}"])],
                             freshness: ["MASTER": GuardLimit(warn: 3, references: ["refuse": "${STALE}"])])
        let set = try spec.resolved(["FLOOR": "250000", "STALE": ""], file: "p.yaml")
        #expect(set.minRows["MASTER"] == GuardLimit(refuse: 250_000))
        #expect(set.freshness["MASTER"] == GuardLimit(warn: 3))
        #expect(try spec.resolved(["FLOOR": "", "STALE": ""], file: "p.yaml").minRows.isEmpty)
        for bad in ["many", "nan", "inf", "0x3D090"] {   // the last three, numbers to Double(_:)
            #expect(throws: PipelineError.self, "\(bad)") { try spec.resolved(["FLOOR": bad, "STALE": ""], file: "p.yaml") }
        }
        do {
            _ = try spec.resolved(["FLOOR": "1", "STALE": "2"], file: "p.yaml")
            Issue.record("a refusal before the warning was accepted")
        } catch {
            #expect(error.message == "p.yaml: guards.freshness.MASTER: expected warn at most refuse (a warning comes before a refusal), found warn 3, refuse 2")
        }
    }
}

extension NightlyHarness {
    /// New MASTER content: N250JT's owner renamed in place (same width). Returns the bytes before.
    @discardableResult
    func renameOwner() throws -> Data {
        let master = URL(fileURLWithPath: sources + "/faa/MASTER.txt")
        let original = try Data(contentsOf: master)
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "NORTHWIND CHARTER CORP", with: "NORTHWIND CHARTER INC ").utf8)
            .write(to: master)
        return original
    }
}

@Suite("Stages on request")
struct StageRequestTests {
    @Test("when: a stage is requested by any value but nothing, 0, no or false")
    func when() throws {
        let definition = try PipelineDefinition.load(path: TestPaths.packageRoot.path + "/pipelines/nightly.yaml")
        let layout = StageLayout(cache: "/nonexistent/cache", staging: "/nonexistent/staging")
        for (value, dropped) in [("", true), ("0", true), ("No", true), ("false", true), ("1", false), ("yes", false)] {
            let plan = try PipelinePlan(definition, parameters: ["SQLITE": value])
            let stage = try #require(plan.stages(in: layout, toolDirectory: "/bin").first { $0.name == "export-sqlite" })
            #expect((stage.dropped != nil) == dropped, "SQLITE=\(value)")
        }
    }
}

@Suite("Operator guards through `pipeline run`")
struct OperatorGuardRunTests {
    /// Moves the date `sources.json` records for `stem` back by `days` (time passing).
    static func age(_ h: NightlyHarness, _ stem: String, days: Double) throws {
        let path = h.output + "/.pipeline/nightly/sources.json"
        var state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: [String: Any]]
        let since = try #require(ISO8601DateFormatter().date(from: state[stem]!["since"] as! String))
        state[stem]!["since"] = ISO8601DateFormatter().string(from: since.addingTimeInterval(-days * 86_400))
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
    }

    @Test("a floor refuses (exit 1, the published build untouched); a stale source warns, then refuses an unchanged run; --accept lets it pass")
    func floorAndFreshness() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let first = try h.run()
        #expect(first.status == 0, "\(first.log)")
        let published = h.published()
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").asOf?.description == "2026-02-09")
        let inspect = try TestPaths.run("fieldguide", ["inspect", h.output + "/aircraft.fgb"])
        #expect(inspect.stdout.split(separator: "\n").dropFirst().first == "as of 2026-02-09 (the latest MASTER last-action date)")

        // New MASTER content below the operator's floor: refused, nothing published.
        let master = h.sources + "/faa/MASTER.txt"
        let original = try h.renameOwner()
        let floor = try h.run(["--set", "MASTER_MIN_ROWS=250000"])
        #expect(floor.status == 1)
        #expect(floor.summary?.status == .refused)
        #expect(floor.log.contains("guard min_rows MASTER REFUSED: 20 rows read, fewer than the 250,000 required"))
        #expect(h.published().current == published.current && h.published().aircraft == published.aircraft)

        // The same MASTER as the published build, ten days on: a warning by default (exit 0)…
        try original.write(to: URL(fileURLWithPath: master))
        #expect(try h.run().summary?.status == .unchanged)
        try Self.age(h, "MASTER", days: 10)
        let warned = try h.run()
        #expect(warned.status == 0, "\(warned.log)")
        #expect(warned.summary?.status == .unchanged)
        #expect(warned.log.contains("guard freshness MASTER WARNING: MASTER unchanged for 10 days (since "))
        #expect(warned.summary?.guards.first { $0.name == "freshness MASTER" }?.warned == true)
        // …a refusal with the operator's limit, the current build kept…
        let stale = try h.run(["--set", "STALE_REFUSE_DAYS=8"])
        #expect(stale.status == 1)
        #expect(stale.summary?.status == .refused)
        #expect(stale.summary?.message?.hasSuffix("more than the 8 days allowed; the artifacts equal the current build's, which stays") == true,
                "\(stale.summary?.message ?? "")")
        #expect(h.published().current == published.current && h.published().aircraft == published.aircraft)
        // …and accepted on purpose for one run.
        let accepted = try h.run(["--set", "STALE_REFUSE_DAYS=8", "--accept", "freshness:MASTER"])
        #expect(accepted.status == 0)
        #expect(accepted.summary?.guards.first { $0.name == "freshness MASTER" }?.outcome == "accepted")
    }

    @Test("a guard parameter that is not a number stops the run before any stage (exit 2)")
    func badParameter() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let bad = try h.run(["--set", "MASTER_MIN_ROWS=lots"])
        #expect(bad.status == 2)
        #expect(bad.log.contains("pipelines/nightly.yaml: guards.min_rows.MASTER: expected a number once its parameters are set, found 'lots'"), "\(bad.log)")
        #expect(bad.summary?.stages.isEmpty == true)
    }
}
