@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A stage that hangs cannot hold the run: past its `timeout:` it is stopped with every process
/// it started, the run fails with the reason, and the published build stays.
@Suite("Stage time-outs", .serialized)
struct StageTimeoutTests {
    /// One stage `slow` that writes its output, then (when `ROOT/hang` exists) starts a child
    /// sleeper and sleeps itself, recording both pids.
    static let yaml = """
        name: t
        stages:
          - name: slow
            tool: slow
            inputs: [flag]
            outputs: [a.txt]
            args: ["{out}"]
            timeout: 1s
        sources:
          flag: { path: "ROOT/flag" }
        publish:
          artifacts: [slow/a.txt]
        """

    static func slowTool(ignoringTERM: Bool = false) -> String {
        (ignoringTERM ? "trap '' TERM\n" : "") + """
            echo "$(cat ROOT/flag)" > "$1/a.txt"
            if [ -e ROOT/hang ]; then
              sleep 300 &
              echo $! > ROOT/child.pid
              echo $$ > ROOT/stage.pid
              echo "hanging"
              sleep 301
            fi

            """
    }

    func pids(_ p: ScriptPipeline) -> [pid_t] {
        ["child.pid", "stage.pid"].compactMap {
            (try? String(contentsOfFile: p.root + "/" + $0, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Waits up to two seconds for `pids` to be gone (the kernel may take a moment to reap).
    func gone(_ pids: [pid_t]) -> Bool {
        for _ in 0..<100 where pids.contains(where: isRunning) { usleep(20_000) }
        return !pids.contains(where: isRunning)
    }

    @Test("a hanging stage and its child are stopped at the time-out; exit 1 with the reason; the published build stays")
    func hangingStage() throws {
        let p = try ScriptPipeline(yaml: Self.yaml, tools: ["slow": Self.slowTool()])
        defer { p.remove() }
        try "one".write(toFile: p.root + "/flag", atomically: true, encoding: .utf8)
        #expect(try p.run().status == 0)
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: p.output + "/current")

        try "two".write(toFile: p.root + "/flag", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: p.root + "/hang", contents: nil)
        let started = Date()
        let result = try p.run()
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(seconds < 60, "took \(seconds) s")
        #expect(result.stderr.contains("[slow] hanging"))
        #expect(result.stderr.contains("[slow] failed: timed out after 1 s; stopped with every process it started"), "\(result.stderr)")
        #expect(result.stderr.contains("pipeline: failed in "), "\(result.stderr)")
        #expect(result.stderr.contains("stage slow timed out after 1 s (its time-out); the stage and every process it started were stopped"))
        let pids = pids(p)
        #expect(pids.count == 2)
        #expect(gone(pids), "still running: \(pids.filter(isRunning))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: p.output + "/current") == current)
        #expect(try String(contentsOfFile: p.output + "/current/a.txt", encoding: .utf8) == "one\n")
        // The summary records the time-out.
        let summary = try JSONDecoder().decode(RunSummary.self, from: Data(contentsOf: URL(fileURLWithPath: p.output + "/runs/latest.json")))
        #expect(summary.stages.first?.timedOutAfter == 1)
        #expect(summary.failure == .stageFailed)
    }

    @Test("a stage that ignores SIGTERM gets SIGKILL after the grace (--kill-grace), children too")
    func ignoresTerm() throws {
        let p = try ScriptPipeline(yaml: Self.yaml, tools: ["slow": Self.slowTool(ignoringTERM: true)])
        defer { p.remove() }
        try "one".write(toFile: p.root + "/flag", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: p.root + "/hang", contents: nil)
        let started = Date()
        let result = try p.run(["--kill-grace", "0.3"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("stage slow timed out after 1 s (its time-out); the stage and every process it started were stopped"),
                "\(result.stderr)")
        let pids = pids(p)
        #expect(pids.count == 2)
        #expect(gone(pids), "still running: \(pids.filter(isRunning))")
        #expect(!FileManager.default.fileExists(atPath: p.output + "/current"))
        #expect(try p.run(["--kill-grace=-1"]).status == 2)
    }

    @Test("a stage's background child left running after it exits is stopped, so its output pipe closes")
    func leftBehindChild() throws {
        let p = try ScriptPipeline(yaml: Self.yaml, tools: ["slow": """
            echo x > "$1/a.txt"
            sleep 300 &
            echo $! > ROOT/child.pid

            """])
        defer { p.remove() }
        try "one".write(toFile: p.root + "/flag", atomically: true, encoding: .utf8)
        let started = Date()
        let result = try p.run()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(gone(pids(p)))
    }
}
