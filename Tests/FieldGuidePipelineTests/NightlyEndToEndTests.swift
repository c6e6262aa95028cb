import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuide
import FieldGuideArtifact
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Nightly pipeline end to end", .serialized)
struct NightlyEndToEndTests {
    @Test("first run publishes both artifacts; an unchanged rerun skips every stage but record-history (a copy) and publishes nothing")
    func firstRunAndUnchangedRerun() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let first = try h.run()
        #expect(first.status == 0, "\(first.log)")
        #expect(first.summary?.status == .published)
        // fetch-faa (no FAA_URL), aggregate-ebd (input/ holds no eBird Basic Dataset) and export-sqlite (not requested, SQLITE): dropped.
        #expect(first.summary?.stages.map(\.status) == [.dropped, .ran, .ran, .ran, .ran, .dropped, .ran, .ran, .ran, .dropped])
        let (current, aircraft, birds) = h.published()
        #expect(current == first.summary?.build)
        #expect(aircraft != nil && birds != nil)
        // The published artifacts open through the stable names, and the manifest covers both.
        let bundle = try AircraftBundle(path: h.output + "/aircraft.fgb")
        #expect(bundle.registrationCount == 20)
        let manifest = try Manifest.decode(from: try Data(contentsOf: URL(fileURLWithPath: h.output + "/manifest.json")))
        #expect(manifest.artifacts.map(\.file) == ["aircraft-index.fgb", "aircraft.fgb", "birds.fgb"])
        #expect(manifest.built == "2025-11-22T00:00:00Z")
        #expect(FileManager.default.fileExists(atPath: h.output + "/current/reports/faa-rejects.csv"))
        // Stage logs are streamed with the stage's name.
        #expect(first.log.contains("[ingest-faa] ingest-faa: "))
        // The sources' digests kept for the next run are true, also those taken from a stage's
        // report (ingest-faa's and ingest-birds' list every source they read) without hashing.
        let kept = try JSONDecoder().decode(DigestCache.Stored.self, from: Data(contentsOf: URL(fileURLWithPath: h.output + "/.pipeline/nightly/digests.json")))
        #expect(kept.files.keys.contains { $0.hasSuffix("/faa/MASTER.txt") })
        for (path, entry) in kept.files {
            #expect(try FileDigest.sha256(ofFileAt: path).digest == entry.sha256, "\(path)")
        }
        // A stage that reads only other stages' outputs starts with their size too.
        #expect(first.log.contains("[emit-aircraft] started (") && !first.log.contains("(0.0 KB of input)"), "\(first.log)")
        // Each stage record holds its outputs' true digests, also those taken from the stage's
        // own report without reading the file (`StageRecord.make`).
        let stages = h.output + "/.pipeline/nightly/stages"
        for stage in try FileManager.default.contentsOfDirectory(atPath: stages) {
            let data = try Data(contentsOf: URL(fileURLWithPath: stages + "/" + stage + "/.stage.json"))
            let outputs = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["outputs"] as? [String: String]
            #expect(outputs?.isEmpty == false, "\(stage)")
            for (file, digest) in outputs ?? [:] {
                #expect(try FileDigest.sha256(ofFileAt: stages + "/" + stage + "/" + file).digest == digest, "\(stage)/\(file)")
            }
        }

        let again = try h.run()
        #expect(again.status == 0, "\(again.log)")
        #expect(again.summary?.status == .unchanged)
        // record-history runs every time ({run} is part of its fingerprint): it copies the published history.
        #expect(again.summary?.stages.map(\.status) == [.dropped, .skipped, .skipped, .skipped, .ran, .dropped, .skipped, .skipped, .skipped, .dropped])
        #expect(h.published().current == current)
        #expect(!FileManager.default.fileExists(atPath: h.output + "/previous"))
    }

    @Test("--set REDACT=individuals publishes a redacted aircraft artifact; back to the default, only emit-aircraft and what it feeds rerun")
    func redacted() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let redacted = try h.run(["--set", "REDACT=individuals"])
        #expect(redacted.status == 0 && redacted.summary?.status == .published, "\(redacted.log)")
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").ownerRedaction == .individuals)
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").aircraft(registration: "N100A")?.ownerWithheld == true)
        let complete = try h.run()
        #expect(complete.status == 0 && complete.summary?.status == .published, "\(complete.log)")
        #expect(h.statuses(complete.summary)["ingest-faa"] == .skipped && h.statuses(complete.summary)["emit-aircraft"] == .ran)
        let bundle = try AircraftBundle(path: h.output + "/aircraft.fgb")
        #expect(bundle.ownerRedaction == .none && bundle.aircraft(registration: "N100A")?.name == "PETERSEN MARGIT A")
        let wrong = try h.run(["--set", "REDACT=everyone"])
        #expect(wrong.status == 2 && wrong.log.contains("--redact: expected one of none, individuals, found everyone"), "\(wrong.log)")
    }

    @Test("identical inputs give byte-identical artifacts: a forced rebuild finds nothing to publish")
    func reproducible() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let before = h.published()
        let forced = try h.run(["--force"])
        #expect(forced.summary?.stages.map(\.status) == [.dropped, .ran, .ran, .ran, .ran, .dropped, .ran, .ran, .ran, .dropped])
        #expect(forced.summary?.status == .unchanged, "\(forced.log)")
        // A second output directory built from scratch holds the same bytes.
        let other = NightlyHarness(root: h.root + "/second")
        try FileManager.default.createDirectory(atPath: other.root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: other.sources, withDestinationPath: h.sources)
        #expect(try other.run().status == 0)
        #expect(other.published().aircraft == before.aircraft)
        #expect(other.published().birds == before.birds)
    }

    @Test("one source changed: only the stages that read it (and what they feed) rerun; the change report is written")
    func oneSourceChanged() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let first = try h.run()
        #expect(first.status == 0)
        // A new registration in MASTER (the last row again under a new N-number and Mode S code).
        let master = h.sources + "/faa/MASTER.txt"
        var text = try String(contentsOfFile: master, encoding: .utf8)
        let rows = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let last = rows.last!
        let added = "98765" + last.dropFirst(5)
        text += added + "\r\n"
        try text.write(toFile: master, atomically: true, encoding: .utf8)

        let second = try h.run()
        #expect(second.status == 0, "\(second.log)")
        #expect(second.summary?.status == .published)
        let ran = h.statuses(second.summary)
        #expect(ran["ingest-faa"] == .ran)
        #expect(ran["emit-aircraft"] == .ran)
        #expect(ran["ingest-birds"] == .skipped)
        // ingest-exports reads the new aircraft artifact, so it reruns; its observations are
        // the same, so the final birds emit is skipped.
        #expect(ran["ingest-exports"] == .ran)
        #expect(ran["emit-birds"] == .skipped)
        // previous → the first build, current → the new one; the report counts one registration added.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/previous") == first.summary?.build)
        #expect(h.published().current == second.summary?.build)
        #expect(second.summary?.changes?["Registrations (MASTER)"]?["added"] == 1)
        let report = try JSONDecoder().decode(ChangeReport.self, from: Data(contentsOf: URL(fileURLWithPath: h.output + "/current/changes.json")))
        #expect(report.sections.first { $0.title == "Registrations (MASTER)" }?.added == ["N98765"])
        let page = try String(contentsOfFile: h.output + "/changes.md", encoding: .utf8)
        #expect(page.contains("### Added\n- N98765"))
        // fieldguide diff over the two build directories gives the published report.
        let diff = try TestPaths.run("fieldguide", ["diff", h.output + "/previous", h.output + "/current", "--format", "json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(try JSONDecoder().decode(ChangeReport.self, from: Data(diff.stdout.utf8)) == report)
        let none = try TestPaths.run("fieldguide", ["diff", h.output + "/runs", h.output + "/current"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("\(h.output)/runs and \(h.output)/current hold no artifact in common"))
    }

    @Test("a new user export: only the exports stage and the final birds emit rerun; the report shows the observed species")
    func exportChanged() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let ebird = h.sources + "/exports/ebird/MyEBirdData.csv"
        let text = try String(contentsOfFile: ebird, encoding: .utf8)
        let heron = try #require(text.split(separator: "\n").first { $0.hasPrefix("S900000001,Grey Heron,") })
        try (text + heron.replacingOccurrences(of: "S900000001", with: "S900000099") + "\n").write(toFile: ebird, atomically: true, encoding: .utf8)

        let second = try h.run()
        #expect(second.status == 0, "\(second.log)")
        #expect(second.summary?.status == .published)
        #expect(second.summary?.stages.filter { $0.status == .ran }.map(\.name) == ["record-history", "ingest-exports", "emit-birds"])
        let report = try JSONDecoder().decode(ChangeReport.self, from: Data(contentsOf: URL(fileURLWithPath: h.output + "/current/changes.json")))
        let observed = try #require(report.sections.first { $0.title == "Observed species (users' exports)" })
        #expect(observed.changed.count == 1)
        // The export's British name resolves to the taxonomy's.
        #expect(observed.changed.first?.name == "Gray Heron")
        #expect(observed.changed.first?.fields == ["observations 2 → 3"])  // observed twice before (eBird row, other exports)
        #expect(report.sections.first { $0.title == "Registrations (MASTER)" }?.added == [])
    }

    @Test("a bad source fails its stage: nothing is published and the current build stays readable")
    func badSource() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let before = h.published()
        // ENGINE.txt replaced by a file of another kind (ACFTREF's header).
        try FileManager.default.removeItem(atPath: h.sources + "/faa/ENGINE.txt")
        try FileManager.default.copyItem(atPath: h.sources + "/faa/ACFTREF.txt", toPath: h.sources + "/faa/ENGINE.txt")
        let bad = try h.run()
        #expect(bad.status == 1, "\(bad.log)")
        #expect(bad.summary?.status == .failed)
        #expect(bad.summary?.failure == .stageFailed)
        #expect(h.statuses(bad.summary)["ingest-faa"] == .failed)
        #expect(h.statuses(bad.summary)["emit-aircraft"] == .notRun)
        #expect(bad.summary?.message?.contains("stage ingest-faa failed (exit 1)") == true)
        #expect(bad.summary?.stages.first { $0.name == "ingest-faa" }?.error?.contains("ENGINE.txt") == true)
        let after = h.published()
        #expect(after.current == before.current)
        #expect(after.aircraft == before.aircraft)
        _ = try AircraftBundle(path: h.output + "/aircraft.fgb")
    }

    @Test("a required source missing stops the run before any stage")
    func missingSource() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        try FileManager.default.removeItem(atPath: h.sources + "/faa")
        let result = try h.run()
        #expect(result.status == 1)
        #expect(result.summary?.failure == .missingSource)
        #expect(result.summary?.guards.first?.held == false)
        #expect(result.summary?.message == "source 'faa' is required but \(h.sources)/faa does not exist")
        #expect(result.summary?.stages.isEmpty == true)
        #expect(h.published().current == nil)
    }

    @Test("--progress bar draws stages done, bytes and rate under the log lines")
    func progressBar() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let result = try h.run(["--progress", "bar"])
        #expect(result.status == 0)
        #expect(result.log.contains("\u{1B}[2K"))
        #expect(result.log.contains("/10 stages · "))   // fetch-faa, aggregate-ebd and export-sqlite, dropped, count among them
        #expect(result.log.contains(" MB/s · "))
    }

    @Test("a second run while one holds the output directory is refused (exit 2), not interleaved")
    func locked() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let state = h.output + "/.pipeline/nightly"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let fd = open(state + "/lock", O_CREAT | O_RDWR, 0o644)
        #expect(flock(fd, LOCK_EX) == 0)
        let refused = try h.run()
        close(fd)
        #expect(refused.status == 2)
        #expect(refused.summary?.failure == .locked)
        #expect(refused.summary?.message == "another run of nightly is using \(h.output)")
        #expect(try h.run().status == 0)
    }

    @Test("the shrink guard refuses a MASTER that lost more than 2% of its rows; the current build stays")
    func shrinkGuard() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let before = h.published()
        let master = h.sources + "/faa/MASTER.txt"
        let lines = try String(contentsOfFile: master, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        // Header plus 20 rows → header plus 18 rows: −10%.
        try (lines.dropLast(2).joined(separator: "\r\n") + "\r\n").write(toFile: master, atomically: true, encoding: .utf8)
        let refused = try h.run()
        #expect(refused.status == 1, "\(refused.log)")
        #expect(refused.summary?.status == .refused)
        let guardResult = refused.summary?.guards.first { $0.name == "shrink MASTER" }
        #expect(guardResult?.held == false)
        #expect(guardResult?.detail == "20 → 18 rows read (−10%), more than the 2% allowed")
        #expect(refused.log.contains("guard shrink MASTER REFUSED"))
        #expect(h.published().current == before.current)
        #expect(h.published().aircraft == before.aircraft)

        // Accepted on purpose: published, and the run summary says the guard was accepted.
        #expect(try h.run(["--accept", "shrink:MASTR"]).status == 1)   // another guard's name accepts nothing
        #expect(try h.run(["--accept", "shrink"]).status == 2)          // not SOURCE:NAME: a usage error
        let accepted = try h.run(["--accept", "shrink:MASTER"])
        #expect(accepted.status == 0, "\(accepted.log)")
        #expect(accepted.summary?.status == .published)
        #expect(accepted.summary?.guards.first { $0.name == "shrink MASTER" }?.accepted == true)
        #expect(accepted.log.contains("guard shrink MASTER ACCEPTED (--accept): 20 → 18 rows read (−10%)"))
        #expect(h.published().current != before.current)
    }

    @Test("the nightly on the real ../shared data: first run, unchanged rerun, one source changed, guards tripped, a bad source")
    func realData() throws {
        guard let faa = try FAAFixtures.sharedDirectory(),
              let skytrails = TestPaths.shared("birds/skytrails"),
              let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv"),
              let ebird = TestPaths.shared("birds/ebird"),
              let names = TestPaths.shared("birds/names"),
              let exports = TestPaths.shared("exports"),
              let icao = TestPaths.shared("aircraft/icao-types.json") else { return }
        let h = NightlyHarness(root: try TestPaths.temporaryDirectory("nightly-real").path)
        defer { h.remove(); try? FileManager.default.removeItem(atPath: faa) }
        let fm = FileManager.default
        for dir in ["birds", "aircraft"] { try fm.createDirectory(atPath: h.sources + "/" + dir, withIntermediateDirectories: true) }
        try fm.createSymbolicLink(atPath: h.sources + "/faa", withDestinationPath: faa)
        for seed in ["bird_database.json", "watchlists.json", "sharedWatchlists.json", "home_data.json"] {
            try fm.createSymbolicLink(atPath: h.sources + "/birds/" + seed, withDestinationPath: skytrails.path + "/" + seed)
        }
        try fm.createSymbolicLink(atPath: h.sources + "/birds/eBird_Taxonomy_v2021.csv", withDestinationPath: taxonomy.path)
        try fm.createSymbolicLink(atPath: h.sources + "/birds/barchart-svalbard.txt", withDestinationPath: ebird.path + "/barchart-svalbard.txt")
        try fm.createSymbolicLink(atPath: h.sources + "/birds/ebirdst_runs_2023.csv", withDestinationPath: ebird.path + "/ebirdst_runs_2023.csv")
        try fm.createSymbolicLink(atPath: h.sources + "/birds/names", withDestinationPath: names.path)
        try fm.createSymbolicLink(atPath: h.sources + "/exports", withDestinationPath: exports.path)
        try fm.createSymbolicLink(atPath: h.sources + "/aircraft/icao-types.json", withDestinationPath: icao.path)

        let first = try h.run()
        #expect(first.status == 0, "\(first.log)")
        #expect(first.summary?.status == .published)
        let counts = first.summary?.stages.first { $0.name == "ingest-faa" }?.rows
        #expect(counts?.read == 3_535 + 4_751 + 311)
        #expect(counts?.rejected == 0)
        let aircraft = try AircraftBundle(path: h.output + "/aircraft.fgb")
        #expect(aircraft.aircraft(modeSHex: "AC6CD2")?.nNumber == "N90")
        let birds = try BirdsBundle(path: h.output + "/birds.fgb")
        #expect(birds.speciesCount == 46)

        let again = try h.run()
        #expect(again.summary?.status == .unchanged)
        #expect(again.summary?.stages.allSatisfy { $0.status == .skipped || $0.status == .dropped || $0.name == "record-history" } == true)

        // One source changed: the two FAA-owned aircraft get a new owner name (same width).
        // The shared files stay untouched: the symbolic link is replaced by an edited copy.
        let master = faa + "/MASTER.txt"
        let real = try String(contentsOf: try #require(TestPaths.shared("faa/MASTER.sample.txt")), encoding: .utf8)
        try fm.removeItem(atPath: master)
        try real.replacingOccurrences(of: "FEDERAL AVIATION ADMINISTRATION", with: "FEDERAL AVIATION ADMINISTRATIOM")
            .write(toFile: master, atomically: true, encoding: .utf8)
        let changed = try h.run()
        #expect(changed.summary?.status == .published, "\(changed.log)")
        #expect(changed.summary?.stages.filter { $0.status == .ran }.map(\.name) == ["ingest-faa", "emit-aircraft", "emit-aircraft-index", "record-history", "ingest-exports"])
        #expect(changed.summary?.changes?["Registrations (MASTER)"]?["ownerChanged"] == 2)
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").aircraft(registration: "N90")?.name == "FEDERAL AVIATION ADMINISTRATIOM")

        // A guard tripped: a MASTER missing ten of its 311 rows (−3.2%) is refused.
        let lines = real.components(separatedBy: "\r\n")
        try fm.removeItem(atPath: master)
        try lines.prefix(lines.count - 11).joined(separator: "\r\n").appending("\r\n").write(toFile: master, atomically: true, encoding: .utf8)
        let refused = try h.run()
        #expect(refused.status == 1)
        #expect(refused.summary?.status == .refused)
        #expect(refused.summary?.guards.first { !$0.held }?.detail == "311 → 301 rows read (−3.2%), more than the 2% allowed")

        // A download cut off in the middle of ENGINE.txt: ingest-faa rejects the broken last
        // line (within its share), and the shrink guard refuses the half-sized file.
        try fm.removeItem(atPath: master)
        try real.replacingOccurrences(of: "FEDERAL AVIATION ADMINISTRATION", with: "FEDERAL AVIATION ADMINISTRATIOM")
            .write(toFile: master, atomically: true, encoding: .utf8)
        let engine = faa + "/ENGINE.txt"
        let engineBytes = try Data(contentsOf: try #require(TestPaths.shared("faa/ENGINE.txt")))
        try fm.removeItem(atPath: engine)
        try engineBytes.prefix(engineBytes.count / 2).write(to: URL(fileURLWithPath: engine))
        let truncated = try h.run()
        #expect(truncated.status == 1)
        #expect(truncated.summary?.status == .refused)
        #expect(truncated.summary?.guards.filter { !$0.held }.map(\.name) == ["shrink ENGINE"])

        // A bad source: ENGINE.txt holding another file (ACFTREF's header) fails ingest-faa.
        try fm.removeItem(atPath: engine)
        try fm.copyItem(atPath: try #require(TestPaths.shared("faa/ACFTREF.sample.txt")).path, toPath: engine)
        let bad = try h.run()
        #expect(bad.status == 1)
        #expect(bad.summary?.failure == .stageFailed)
        #expect(h.statuses(bad.summary)["ingest-faa"] == .failed)
        // Through all of it the published build is the one with the owner change.
        #expect(h.published().current == changed.summary?.build)
        #expect(try AircraftBundle(path: h.output + "/aircraft.fgb").registrationCount == 311)
    }
}
