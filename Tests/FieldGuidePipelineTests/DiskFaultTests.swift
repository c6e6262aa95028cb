@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// A full disk and a read-only output, made for real in a private mount namespace (a small
/// tmpfs, a read-only bind mount): the published build holds, the run fails with the system's
/// reason (exit 2), it never claims a summary it could not write, and the next run recovers.
/// Skipped, with a note, where no mount namespace may be made.
@Suite("Faults: a full disk, a read-only output", .serialized)
struct DiskFaultTests {
    /// Runs the nightly inside `ns` (its output may be a mount only the namespace sees).
    func run(_ h: NightlyHarness, in ns: MountNamespace, _ extra: [String] = []) throws -> (status: Int32, log: String) {
        let result = try ns.run([TestPaths.executable("pipeline").path, "run", TestPaths.packageRoot.path + "/pipelines/nightly.yaml",
                    "--set", "SOURCES=\(h.sources)", "--output", h.output, "--bin", h.bin, "--progress", "plain"] + extra,
                   environment: ["SOURCE_DATE_EPOCH": "1763769600"])
        return (result.status, result.output)
    }

    /// An owner renamed in MASTER (same rows), so the next run has a new build to publish.
    func renameOwner(_ h: NightlyHarness, to name: String) throws {
        let master = h.sources + "/faa/MASTER.txt"
        let text = try String(contentsOfFile: master, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: "NORTHWIND CHARTER CORP", with: name)
        #expect(renamed != text)
        try renamed.write(toFile: master, atomically: true, encoding: .utf8)
    }

    /// The log's promise about the run summary is true: either it names a summary that
    /// exists, or it says why there is none.
    func summaryClaimIsTrue(_ log: String, output: String) {
        if let line = log.split(separator: "\n").last(where: { $0.hasPrefix("pipeline: summary in ") }) {
            #expect(FileManager.default.fileExists(atPath: output + "/" + line.dropFirst("pipeline: summary in ".count)), "\(log)")
        } else {
            #expect(log.contains("pipeline: run summary not recorded: "), "\(log)")
        }
    }

    @Test("ENOSPC during a stage and during publishing (an 8 MB tmpfs filled up): exit 2 with the reason; current holds; the next run publishes")
    func diskFull() throws {
        guard let ns = MountNamespace.start() else { return }
        defer { ns.stop() }
        var h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let realBin = h.bin
        try FileManager.default.createDirectory(atPath: h.output, withIntermediateDirectories: true)
        #expect(try ns.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", h.output]).status == 0)
        let out = ns.outside(h.output)
        let first = try run(h, in: ns)
        #expect(first.status == 0, "\(first.log)")
        let published = try Published.verify(out)

        // During a stage: the disk fills up just before emit-aircraft writes.
        let filler = h.output + "/filler"
        try renameOwner(h, to: "NORTHWIND CHARTER CORQ")
        h.bin = try h.wrappers(replacing: "emit-aircraft", with: """
            #!/bin/sh
            cat /dev/zero > "\(filler)" 2>/dev/null
            exec "REAL/emit-aircraft" "$@"
            """)
        let stage = try run(h, in: ns)
        #expect(stage.status == 2, "\(stage.log)")
        #expect(stage.log.contains("[emit-aircraft] failed (exit 2)"), "\(stage.log)")
        #expect(stage.log.contains("No space left on device"), "\(stage.log)")
        summaryClaimIsTrue(stage.log, output: out)
        #expect(try Published.verify(out) == published)
        try FileManager.default.removeItem(atPath: ns.outside(filler))

        // During publishing: the last stage leaves two pages free, one for its cache record,
        // one for the build's manifest; the change report finds the disk full.
        try FileManager.default.removeItem(atPath: h.root + "/bin")
        h.bin = realBin
        h.bin = try h.wrappers(replacing: "emit-birds", with: """
            #!/bin/sh
            "REAL/emit-birds" "$@" || exit $?
            cat /dev/zero > "\(filler)" 2>/dev/null
            truncate -s -8K "\(filler)"
            """)
        let publishing = try run(h, in: ns)
        #expect(publishing.status == 2, "\(publishing.log)")
        #expect(publishing.log.contains("[emit-birds] ran"), "\(publishing.log)")
        #expect(publishing.log.contains("/build/") && publishing.log.contains("No space left on device"), "\(publishing.log)")
        summaryClaimIsTrue(publishing.log, output: out)
        #expect(try Published.verify(out) == published)
        try FileManager.default.removeItem(atPath: ns.outside(filler))

        // Space again: the real tools publish the renamed owner.
        h.bin = realBin
        let next = try run(h, in: ns)
        #expect(next.status == 0, "\(next.log)")
        #expect(next.log.contains("pipeline: summary in runs/"))
        #expect(try Published.verify(out) != published)
    }

    @Test("a read-only output (bind mount): refused before any stage, exit 2; a read-only runs/: published, no summary claimed")
    func readOnly() throws {
        guard let ns = MountNamespace.start() else { return }
        defer { ns.stop() }
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try run(h, in: ns).status == 0)
        let published = try Published.verify(h.output)

        // The whole output directory read-only.
        #expect(try ns.run(["mount", "--bind", h.output, h.output]).status == 0)
        #expect(try ns.run(["mount", "-o", "remount,bind,ro", h.output]).status == 0)
        try renameOwner(h, to: "NORTHWIND CHARTER CORQ")
        let refused = try run(h, in: ns)
        #expect(refused.status == 2, "\(refused.log)")
        #expect(refused.log.contains("Read-only file system"), "\(refused.log)")
        #expect(!refused.log.contains("] started ("), "\(refused.log)")
        #expect(!refused.log.contains("summary in runs/"), "\(refused.log)")
        #expect(refused.log.contains("pipeline: run summary not recorded: "), "\(refused.log)")
        #expect(try Published.verify(ns.outside(h.output)) == published)
        #expect(try ns.run(["umount", h.output]).status == 0)

        // Only runs/ read-only: the build publishes; the log says the summary is missing.
        #expect(try ns.run(["mount", "--bind", h.output + "/runs", h.output + "/runs"]).status == 0)
        #expect(try ns.run(["mount", "-o", "remount,bind,ro", h.output + "/runs"]).status == 0)
        let unrecorded = try run(h, in: ns)
        #expect(unrecorded.status == 0, "\(unrecorded.log)")
        #expect(unrecorded.log.contains("pipeline: published builds/"), "\(unrecorded.log)")
        #expect(!unrecorded.log.contains("summary in runs/"), "\(unrecorded.log)")
        #expect(unrecorded.log.contains("pipeline: run summary not recorded: ") && unrecorded.log.contains("Read-only file system"),
                "\(unrecorded.log)")
        #expect(try Published.verify(ns.outside(h.output)) != published)
    }
}
