@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// A pipeline file cannot reach outside the output directory: names are identifiers, outputs
/// are paths inside the stage's directory, and a published file must be a file there.
@Suite("Pipeline files are confined to their output directory", .serialized)
struct ConfinementTests {
    /// A one-stage pipeline publishing `mk/OUTPUT`; `name`, `stage` and `output` spliced in.
    static func yaml(name: String = "t", stage: String = "mk", output: String = "a.txt", extra: String = "") -> String {
        """
        name: \(name)
        stages:
          - name: \(stage)
            tool: mk
            outputs: [\(output)]
            args: ["{out}"]
        \(extra)
        publish:
          artifacts: ["\(stage)/\(output)"]
        """
    }

    static let tool = "echo data > \"$1/a.txt\"\n"

    @Test("names and outputs that would leave the directory are refused at load with file:line:column (pipeline check and run, exit 2)",
          arguments: [
              (yaml(name: ".."), "p.yaml:1:7: name: expected a name of ASCII letters, digits, '-' and '_', starting with a letter or digit, at most 64 characters, found '..'"),
              (yaml(stage: "."), "p.yaml:3:11: stages[0].name: '.' cannot name a stage: expected a name of ASCII letters"),
              (yaml(stage: ".."), "p.yaml:3:11: stages[0].name: '..' cannot name a stage"),
              (yaml(stage: "a/b"), "p.yaml:3:11: stages[0].name: 'a/b' cannot name a stage"),
              (yaml(output: "../../../../etc/passwd"), "p.yaml:5:15: stages[0].outputs[0]: expected a path inside the stage's directory (no '..'), found '../../../../etc/passwd'"),
              (yaml(output: "/etc/passwd"), "p.yaml:5:15: stages[0].outputs[0]: expected a path inside the stage's directory (relative, not absolute), found '/etc/passwd'"),
              (yaml(output: "reports//a.txt"), "stages[0].outputs[0]: expected a path inside the stage's directory (normalized: no empty or '.' components)"),
              (yaml(output: ".stage.json"), "stages[0].outputs[0]: expected a path inside the stage's directory (each name of ASCII letters, digits, '.', '-' and '_', not starting with '.', not '.stage.json')"),
              (yaml(output: "current"), "p.yaml:9:15: publish.artifacts[0]: 'current' is a name the output directory keeps for itself"),
              (yaml(extra: "    timeout: 5x"),
               "stages[0].timeout: expected a time-out such as 90s, 30m or 2h (whole seconds, minutes or hours, 1 s to 7 days) (found '5x')"),
          ])
    func refusedAtLoad(text: String, expected: String) throws {
        let p = try ScriptPipeline(yaml: text, tools: ["mk": Self.tool])
        defer { p.remove() }
        for result in [try p.check(), try p.run()] {
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            // Nothing was created for a refused file.
            #expect(!FileManager.default.fileExists(atPath: p.output))
        }
    }

    @Test("the grammar: identifiers for names, file names for tools, relative normalized paths for outputs")
    func grammar() {
        for good in ["nightly", "ingest-faa", "a", "A_1", "0day", String(repeating: "x", count: 64)] {
            #expect(PipelineDefinition.isIdentifier(good), "\(good)")
        }
        for bad in ["", ".", "..", "-x", "_x", "a.b", "a/b", "a b", "é", String(repeating: "x", count: 65)] {
            #expect(!PipelineDefinition.isIdentifier(bad), "\(bad)")
        }
        for good in ["a.txt", "reports/rejects.csv", "x-1_2.fgb"] { #expect(PipelineDefinition.outputPathProblem(good) == nil, "\(good)") }
        for bad in ["", "/a", "a/", "./a", "a/./b", "a/../b", "..", ".hidden", "a/.b", "a\\b", "a b"] {
            #expect(PipelineDefinition.outputPathProblem(bad) != nil, "\(bad)")
        }
        #expect(StageTimeout("90")?.seconds == 90)
        #expect(StageTimeout("90s")?.seconds == 90)
        #expect(StageTimeout("30m")?.seconds == 1800)
        #expect(StageTimeout("2h")?.seconds == 7200)
        for bad in ["0", "0s", "-1", "1.5h", "8d", "169h", "h", "", "1 h", "99999999999"] { #expect(StageTimeout(bad) == nil, "\(bad)") }
        #expect(StageTimeout.default.seconds == 3600)
    }

    @Test("pipeline check passes the project's own pipeline files")
    func checksProjectFiles() throws {
        for file in ["pipelines/nightly.yaml", "pipelines/validate-seeds.yaml"] {
            let result = try TestPaths.run("pipeline", ["check", file])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix(": ok\n"), "\(result.stdout)")
        }
    }

    @Test("a stage that leaves a link as its declared output fails (exit 1); the link's target is never published")
    func outputLinkFromStage() throws {
        let victim = try TestPaths.temporaryDirectory("victim")
        defer { try? FileManager.default.removeItem(at: victim) }
        try "secret\n".write(to: victim.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let p = try ScriptPipeline(yaml: Self.yaml(), tools: ["mk": "ln -s \(victim.path)/secret.txt \"$1/a.txt\"\n"])
        defer { p.remove() }
        let result = try p.run()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("mk exited 0 but its declared output a.txt is not a file inside its directory"), "\(result.stderr)")
        #expect(result.stderr.contains("a symbolic link, not a regular file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: p.output + "/current"))
    }

    @Test("a cached output replaced by a link is refused at publish time (exit 2); the current build stays")
    func outputLinkInCache() throws {
        let victim = try TestPaths.temporaryDirectory("victim")
        defer { try? FileManager.default.removeItem(at: victim) }
        try "secret\n".write(to: victim.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let p = try ScriptPipeline(yaml: Self.yaml(), tools: ["mk": Self.tool])
        defer { p.remove() }
        #expect(try p.run().status == 0)
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: p.output + "/current")
        // Someone swaps the cached output for a link to a file outside: the stage is skipped
        // (its fingerprint matches), and publishing must not link the target in.
        let cached = p.output + "/.pipeline/t/stages/mk/a.txt"
        try FileManager.default.removeItem(atPath: cached)
        try FileManager.default.createSymbolicLink(atPath: cached, withDestinationPath: victim.path + "/secret.txt")
        let result = try p.run()
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("stages/mk/a.txt: a symbolic link, not a regular file; a published file must be a file inside its stage's directory"),
                "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: p.output + "/current") == current)
        #expect(try String(contentsOfFile: p.output + "/current/a.txt", encoding: .utf8) == "data\n")
    }

    @Test("a stage that prints an escape sequence and a carriage return: the pipeline forwards the line escaped, on one line")
    func controlCharactersInStageOutput() throws {
        let p = try ScriptPipeline(yaml: Self.yaml(), tools: ["mk": "printf 'half\\033[2Jdone\\rforged\\n' >&2\n" + Self.tool])
        defer { p.remove() }
        let result = try p.run()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("[mk] half\\u{1B}[2Jdone\\rforged\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\r"), "\(result.stderr)")
    }
}
