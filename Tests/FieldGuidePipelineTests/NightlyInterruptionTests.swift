import FieldGuide
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The nightly stopped part-way (a stage killed, SIGINT, a stage report that does not decode):
/// nothing half-made is ever published, and the next run recovers.
@Suite("Nightly pipeline interrupted", .serialized)
struct NightlyInterruptionTests {
    @Test("a run killed while emitting leaves the published build untouched; the next run publishes")
    func killedDuringEmit() throws {
        var h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let before = h.published()
        // A newer MASTER so that emit-aircraft has work to do.
        let master = h.sources + "/faa/MASTER.txt"
        let rows = try String(contentsOfFile: master, encoding: .utf8)
        try (rows + "99999" + rows.components(separatedBy: "\r\n").filter { !$0.isEmpty }.last!.dropFirst(5) + "\r\n")
            .write(toFile: master, atomically: true, encoding: .utf8)

        // Wrappers: the real tools, except emit-aircraft, which writes its artifact into
        // staging and then hangs (as a slow emit would) until killed. Its process id is
        // written beside the marker and renamed onto it: the marker never exists empty (read
        // between `>`'s create and write, it once did, on a loaded machine).
        let realBin = h.bin
        let marker = h.root + "/emitting"
        let wrappers = try h.wrappers(replacing: "emit-aircraft", with: """
            #!/bin/sh
            "REAL/emit-aircraft" "$@" || exit $?
            echo $$ > "\(marker).tmp" && mv "\(marker).tmp" "\(marker)"
            exec sleep 60
            """)
        h.bin = wrappers

        let process = Process()
        process.executableURL = TestPaths.executable("pipeline")
        process.arguments = ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(h.sources)", "--output", h.output,
                             "--bin", wrappers, "--progress", "plain"]
        process.currentDirectoryURL = TestPaths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(["SOURCE_DATE_EPOCH": "1763769600"]) { $1 }
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) && Date() < deadline { usleep(20_000) }
        let emitter = (try? String(contentsOfFile: marker, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(emitter != nil, "emit-aircraft never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The stage runs in a process group of its own: it outlives the killed pipeline.
        #expect(emitter.map(isRunning) == true)

        #expect(process.terminationReason == .uncaughtSignal)
        let after = h.published()
        #expect(after.current == before.current)
        #expect(after.aircraft == before.aircraft)
        _ = try AircraftBundle(path: h.output + "/aircraft.fgb")

        // The next run (the real tools again) takes the lock, stops the killed run's stage
        // (recorded by its process group), clears the stale staging and publishes.
        h.bin = realBin
        let next = try h.run()
        #expect(next.status == 0, "\(next.log)")
        #expect(emitter.map(isRunning) == false)
        #expect(next.summary?.status == .published)
        #expect(h.statuses(next.summary)["ingest-faa"] == .skipped)
        #expect(h.statuses(next.summary)["emit-aircraft"] == .ran)
    }

    @Test("SIGINT stops the running stages at once: exit 130, the run cancelled, nothing published")
    func interrupted() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        // Wrappers: the real tools, except ingest-birds, which then hangs until stopped. (bash, not
        // dash: bash hands its signal mask on to what it runs, so a blocked SIGTERM shows.)
        let marker = h.root + "/hanging"
        let wrappers = try h.wrappers(replacing: "ingest-birds", with: """
            #!/bin/bash
            "REAL/ingest-birds" "$@" || exit $?
            touch "\(marker)"
            exec sleep 60
            """)

        let process = Process()
        process.executableURL = TestPaths.executable("pipeline")
        process.arguments = ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(h.sources)", "--output", h.output,
                             "--bin", wrappers, "--progress", "plain"]
        process.currentDirectoryURL = TestPaths.packageRoot
        _ = FileManager.default.createFile(atPath: h.root + "/log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: h.root + "/log")
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) && Date() < deadline { usleep(20_000) }
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        // The hanging stage got SIGTERM (a stage started from a worker thread must not block it).
        #expect(Date().timeIntervalSince(interrupted) < 20)
        #expect(process.terminationStatus == 130)
        let log = try String(contentsOfFile: h.root + "/log", encoding: .utf8)
        let summary = h.summary(in: log)
        #expect(summary?.status == .cancelled, "\(log)")
        #expect(h.statuses(summary)["ingest-birds"] == .cancelled)
        #expect(h.statuses(summary)["emit-birds"] == .cancelled)
        #expect(h.published().current == nil)
    }

    @Test("a stage whose report does not decode as a stage report fails with the reason; nothing is published")
    func undecodableReport() throws {
        var h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        // Wrappers: the real tools, except ingest-birds, whose report is replaced by JSON of another shape.
        let realBin = h.bin
        h.bin = try h.wrappers(replacing: "ingest-birds", with: """
            #!/bin/sh
            "REAL/ingest-birds" "$@" || exit $?
            prev=""; for a in "$@"; do [ "$prev" = "--output" ] && out="$a"; prev="$a"; done
            echo '{"status": "ok", "files": []}' > "$out/birds-ingest.json"
            """)

        let result = try h.run()
        #expect(result.status == 1, "\(result.log)")
        #expect(result.summary?.failure == .stageFailed)
        let stage = result.summary?.stages.first { $0.name == "ingest-birds" }
        #expect(stage?.status == .failed && stage?.exitCode == 0)
        #expect(stage?.error?.hasPrefix("ingest-birds exited 0 but ") == true)
        #expect(stage?.error?.hasSuffix("/ingest-birds/birds-ingest.json: expected a stage report, found JSON that does not decode as one: no \"stage\"") == true,
                "\(stage?.error ?? "")")
        #expect(result.summary?.message?.hasPrefix("stage ingest-birds failed (exit 0): ingest-birds exited 0 but ") == true)
        // Both stages that read the birds hand-off wait on it.
        #expect(h.statuses(result.summary)["ingest-exports"] == .notRun && h.statuses(result.summary)["emit-birds"] == .notRun)
        #expect(h.published().current == nil)
        // It was not cached: with the real tool it runs again, and the run publishes.
        h.bin = realBin
        let next = try h.run()
        #expect(next.status == 0, "\(next.log)")
        #expect(h.statuses(next.summary)["ingest-birds"] == .ran)
        #expect(h.statuses(next.summary)["ingest-faa"] == .skipped)
        // Stage reports are decoded typed: rows and counts come from them and from the manifests.
        #expect(next.summary?.stages.first { $0.name == "ingest-exports" }?.rows?.read ?? 0 > 0)
        #expect(next.summary?.stages.first { $0.name == "emit-aircraft" }?.counts["registrations"] == 20)
    }
}
