@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `priority: background` runs a stage, and everything it starts, nicer than the pipeline, so
/// the stages the run waits on get the cores first; a misspelt priority is refused at load.
@Suite("Stage priorities", .serialized)
struct StagePriorityTests {
    /// Two stages side by side: `fg` at the default priority, `bg` in the background; each
    /// records its own nice value and a child's.
    static let yaml = """
        name: t
        stages:
          - name: fg
            tool: niceness
            outputs: [fg.txt]
            args: ["{out}/fg.txt"]
          - name: bg
            tool: niceness
            outputs: [bg.txt]
            args: ["{out}/bg.txt"]
            priority: background
        publish:
          artifacts: [fg/fg.txt, bg/bg.txt]
        """

    /// Prints the shell's nice value (field 19 of /proc/PID/stat), then a child process's
    /// (`nice` without a command prints its own).
    static let tool = """
        cut -d' ' -f19 /proc/$$/stat > "$1"
        nice >> "$1"

        """

    @Test("a background stage and its children run at the pipeline's nice value plus 10 (at most 19) from their start; a normal one at the pipeline's")
    func backgroundIsNicer() throws {
        let p = try ScriptPipeline(yaml: Self.yaml, tools: ["niceness": Self.tool])
        defer { p.remove() }
        let result = try p.run()
        #expect(result.status == 0, "\(result.stderr)")
        func values(_ stage: String) throws -> [Int32] {
            try String(contentsOfFile: p.output + "/current/\(stage).txt", encoding: .utf8)
                .split(separator: "\n").compactMap { Int32($0) }
        }
        // The pipeline runs at the test's own nice value.
        errno = 0
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(errno == 0)
        let normal = try values("fg"), background = try values("bg")
        #expect(normal == [own, own])
        #expect(background == [min(own + 10, 19), min(own + 10, 19)])
    }

    @Test("a priority other than normal or background is refused at load with file:line:column (exit 2)")
    func unknownPriority() throws {
        let p = try ScriptPipeline(yaml: Self.yaml.replacingOccurrences(of: "priority: background", with: "priority: low"),
                                   tools: ["niceness": Self.tool])
        defer { p.remove() }
        for result in [try p.check(), try p.run()] {
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("p.yaml:11:15: stages[1].priority: expected normal or background (found 'low')"), "\(result.stderr)")
            #expect(!result.stderr.contains("DecodingError"))
        }
    }

    @Test("a background stage whose tool is missing fails as a normal one does: cannot start, exit 1")
    func missingTool() throws {
        let p = try ScriptPipeline(yaml: Self.yaml.replacingOccurrences(of: "tool: niceness\n    outputs: [bg.txt]",
                                                                        with: "tool: absent\n    outputs: [bg.txt]"),
                                   tools: ["niceness": Self.tool])
        defer { p.remove() }
        let result = try p.run()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("[bg] failed: \(p.bin)/absent: cannot start: No such file or directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("nice"), "\(result.stderr)")
    }
}
