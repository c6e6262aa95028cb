@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// SIGKILL at random points of a full nightly over input/: the published build holds in
/// every trial, and the next run recovers (stops the killed run's stages, clears its staging
/// and temporary files) and publishes.
@Suite("Faults: SIGKILL at random points of the nightly", .serialized)
struct KillTrialTests {
    /// Where the killed run was, from its log.
    static func phase(_ log: String) -> String {
        if log.contains("pipeline: published in") || log.contains("pipeline: unchanged in") { return "after it ended" }
        if log.contains("pipeline: published builds/") || log.contains("[emit-birds] ran") { return "publishing" }
        if log.contains("] started (") { return "during stages" }
        return "before any stage"
    }

    @Test("12 trials (FAULT_KILL_TRIALS): killed at a random delay (every third aimed at publishing), current always names a complete verified build; the next run publishes")
    func killTrials() throws {
        let environment = ProcessInfo.processInfo.environment
        let trials = environment["FAULT_KILL_TRIALS"].flatMap(Int.init) ?? 12
        let seed = environment["FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("kill trials: \(trials), seed \(seed) (FAULT_SEED=\(seed) replays them)")
        srand48(Int(seed))   // drand48: a seeded sequence, so FAULT_SEED replays the same delays
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let started = Date()
        #expect(try h.run().status == 0)
        // How long a full run takes, to spread the kills over (and a little past) it.
        var span = max(Date().timeIntervalSince(started), 0.5) * 1.2

        // Two MASTER files that alternate (an owner renamed, same rows), so that every finished
        // run has a build to publish and no guard refuses it.
        let master = h.sources + "/faa/MASTER.txt"
        let original = try String(contentsOfFile: master, encoding: .utf8)
        let extra = original.replacingOccurrences(of: "NORTHWIND CHARTER CORP", with: "NORTHWIND CHARTER CORQ")
        #expect(extra != original)
        var phases: [String: Int] = [:]
        for trial in 1...trials {
            try (trial % 2 == 1 ? extra : original).write(toFile: master, atomically: true, encoding: .utf8)
            let delay = drand48() * span
            let currentBefore = try? FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/current")
            let log = h.root + "/kill-\(trial).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = TestPaths.executable("pipeline")
            process.arguments = ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(h.sources)", "--output", h.output,
                                 "--bin", h.bin, "--progress", "plain", "--force"]
            process.currentDirectoryURL = TestPaths.packageRoot
            process.environment = environment.merging(["SOURCE_DATE_EPOCH": "1763769600"]) { $1 }
            process.standardError = FileHandle(forWritingAtPath: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            if trial % 3 == 0 {
                // Aimed at publishing: once the last stage reports, within the next 80 ms.
                while process.isRunning, !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("[emit-birds] ran") {
                    usleep(2_000)
                }
                usleep(useconds_t(drand48() * 80_000))
            } else {
                usleep(useconds_t(delay * 1_000_000))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let phase = Self.phase((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            let moved = (try? FileManager.default.destinationOfSymbolicLink(atPath: h.output + "/current")) != currentBefore
            phases[phase + (phase == "publishing" ? (moved ? " (new build current)" : " (old build current)") : ""), default: 0] += 1
            // A kill after the end tries nothing: the next delays stay within the run.
            if phase == "after it ended" && trial % 3 != 0 { span = max(delay * 0.9, 0.3) }

            // Whatever the moment, current names a complete build (the names beside it may
            // lag: a kill between the swaps), and the next run recovers and publishes.
            #expect(throws: Never.self, "trial \(trial) (\(phase), \(delay) s)") { try Published.verify(h.output, stableNames: false) }
            let next = try h.run()
            #expect(next.status == 0, "trial \(trial) (\(phase), \(delay) s): \(next.log)")
            #expect([.published, .unchanged].contains(next.summary?.status), "trial \(trial): \(next.log)")
            #expect(throws: Never.self, "trial \(trial) after the next run") { try Published.verify(h.output) }
            let staging = (try? FileManager.default.contentsOfDirectory(atPath: h.output + "/.pipeline/nightly/staging")) ?? []
            #expect(staging.isEmpty, "trial \(trial): staging left \(staging)")
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: h.output)) ?? []) + ((try? FileManager.default.contentsOfDirectory(atPath: h.output + "/runs")) ?? [])
            #expect(leftovers.filter { Leftover.pid(in: $0) != nil }.isEmpty, "trial \(trial): \(leftovers)")
        }
        print("kill trials: killed " + phases.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}
