@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// A source that changes while the run reads it (a download landing, a mirror rewriting a
/// file in place): the stage fails with the reason and nothing of what it read is kept or
/// published; the next run, over the settled source, publishes what it really reads.
@Suite("A source that changes while it is read", .serialized)
struct ChangingSourceTests {
    /// `change` runs (shell; `SOURCES` in it is the sources directory) inside ingest-faa's
    /// wrapper, after the run fingerprinted the sources: before the real tool, or while it runs
    /// (`during`). `detail(path, size before)` is the change the refusal must name.
    func changed(_ change: String, file: String, during: Bool, detail: (String, Int) -> String) throws {
        var h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let before = try Published.verify(h.output)
        let path = h.sources + "/faa/" + file
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let realBin = h.bin
        let change = change.replacingOccurrences(of: "SOURCES", with: h.sources)
        h.bin = try h.wrappers(replacing: "ingest-faa", with: during ? """
            #!/bin/sh
            "REAL/ingest-faa" "$@" &
            tool=$!
            \(change)
            wait $tool
            """ : """
            #!/bin/sh
            \(change)
            exec "REAL/ingest-faa" "$@"
            """)
        let result = try h.run()
        #expect(result.status == 1, "\(result.log)")
        #expect(result.summary?.failure == .stageFailed)
        let stage = result.summary?.stages.first { $0.name == "ingest-faa" }
        #expect(stage?.status == .failed)
        #expect(stage?.error?.hasPrefix("source 'faa' changed while the run read it (\(detail(path, size))): what ingest-faa read may mix old and new content") == true,
                "\(stage?.error ?? result.log)")
        #expect(h.statuses(result.summary)["emit-aircraft"] == .notRun)
        #expect(try Published.verify(h.output) == before)
        // Nothing of it was cached: with the real tool the next run reads the settled source and publishes it.
        h.bin = realBin
        let next = try h.run()
        #expect(next.status == 0, "\(next.log)")
        #expect(next.summary?.status == .published)
        #expect(h.statuses(next.summary)["ingest-faa"] == .ran)
        try Published.verify(h.output)
    }

    @Test("a row appended after fingerprinting, before the stage reads: refused with the sizes")
    func appendedBeforeRead() throws {
        let append = #"tail -n 1 SOURCES/faa/MASTER.txt | sed 's/^...../98765/' >> SOURCES/faa/MASTER.txt"#
        try changed(append, file: "MASTER.txt", during: false) { path, size in
            let row = (try? String(contentsOfFile: path, encoding: .utf8))?.components(separatedBy: "\r\n").filter { !$0.isEmpty }.last?.utf8.count ?? 0
            return "\(path) went from \(size) to \(size + row + 2) bytes"
        }
    }

    @Test("one byte rewritten in place while the stage reads (same size, same name): refused")
    func rewrittenInPlace() throws {
        // AEROMOTOR → AEZOMOTOR in the second ENGINE row: still a valid file, only different.
        let rewrite = #"printf Z | dd of=SOURCES/faa/ENGINE.txt bs=1 seek=100 conv=notrunc 2>/dev/null"#
        try changed(rewrite, file: "ENGINE.txt", during: true) { path, _ in "\(path) was rewritten or replaced" }
    }
}

/// A first run fingerprints a stage while it runs (nothing cached to skip it): a source that
/// changes as the stage starts, before or after its hashing, is still refused.
@Suite("A source that changes while a first run reads it", .serialized)
struct ChangingSourceFirstRunTests {
    @Test("MASTER appended to as ingest-faa starts, on a first run: refused with the sizes; the next run publishes")
    func appendedAsFirstRunStarts() throws {
        var h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let path = h.sources + "/faa/MASTER.txt"
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let realBin = h.bin
        h.bin = try h.wrappers(replacing: "ingest-faa", with: """
            #!/bin/sh
            tail -n 1 \(h.sources)/faa/MASTER.txt | sed 's/^...../98765/' >> \(h.sources)/faa/MASTER.txt
            exec "REAL/ingest-faa" "$@"
            """)
        let result = try h.run()
        #expect(result.status == 1, "\(result.log)")
        let stage = result.summary?.stages.first { $0.name == "ingest-faa" }
        #expect(stage?.status == .failed)
        #expect(stage?.error?.hasPrefix("source 'faa' changed while the run read it (\(path) went from \(size) to ") == true,
                "\(stage?.error ?? result.log)")
        #expect(h.statuses(result.summary)["emit-aircraft"] == .notRun)
        h.bin = realBin
        let next = try h.run()
        #expect(next.status == 0, "\(next.log)")
        #expect(next.summary?.status == .published)
    }
}
