import Foundation
import Testing
import TestSupport

/// The README's command examples are what the commands print: every `$ fieldguide …` line in a
/// fenced block runs against artifacts built the way the README says (the aircraft artifact
/// from `input/faa`, complete and redacted in `output/public`, the manufacturer index from the
/// real FAA samples and ICAO tables in `../shared`, the birds artifact from the real bird data
/// there; `input/` is there too), and its output
/// must match the lines shown under it. A line `...` stands for any number of lines.
///
/// `make readme-examples` (this test with `README_UPDATE=1`) writes the current outputs into
/// the README, keeping each example's `...` elisions where they still fit.
@Suite("README examples print what the commands print", .serialized)
struct ReadmeExamplesTests {
    struct Example {
        var command: String
        var commandLine: Int
        /// Index range in the README's lines of the expected output.
        var output: Range<Int>
    }

    static let readme = TestPaths.packageRoot.appendingPathComponent("README.md")

    /// `$ ` lines inside fenced blocks, with the lines up to the next `$ ` line or the fence.
    static func examples(in lines: [String]) -> [Example] {
        var examples: [Example] = []
        var inFence = false
        var current: Example?
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if let open = current { examples.append(Example(command: open.command, commandLine: open.commandLine, output: open.output.lowerBound..<index)) }
                current = nil
                inFence.toggle()
                continue
            }
            guard inFence, line.hasPrefix("$ ") else { continue }
            if let open = current { examples.append(Example(command: open.command, commandLine: open.commandLine, output: open.output.lowerBound..<index)) }
            current = Example(command: String(line.dropFirst(2)), commandLine: index, output: (index + 1)..<(index + 1))
        }
        return examples
    }

    /// Splits a shell-like command line: double and single quotes, a trailing `# comment`.
    static func words(_ command: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, started = false
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c; started = true
            } else if c == "#" && !started && word.isEmpty {
                break
            } else if c == " " {
                if started { words.append(word); word = ""; started = false }
            } else {
                word.append(c); started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    /// Expected lines match actual ones; `...` matches any run of lines (none included).
    static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = expected.dropFirst()
            return (actual.startIndex...actual.endIndex).contains { matches(rest, actual[$0...]) }
        }
        guard let line = actual.first, line == first else { return false }
        return matches(expected.dropFirst(), actual.dropFirst())
    }

    /// The artifacts the README's examples read, under `directory/output`.
    static func buildArtifacts(in directory: URL) throws -> Bool {
        guard let birds = TestPaths.shared("birds") else { return false }
        let output = directory.appendingPathComponent("output").path
        let stage = directory.appendingPathComponent("stage").path
        // The complete and the redacted aircraft artifact; the manufacturer index from the real samples, as `make faa` builds it (README: Manufacturer index).
        guard let faa = try FAAFixtures.sharedDirectory(), let types = TestPaths.shared("aircraft/icao-types.json"),
              let modes = TestPaths.shared("aircraft/modes-registrations.json") else { return false }
        for (tool, arguments) in [("ingest-faa", ["input/faa", "--output", stage + "/faa"]),
                                  ("emit-aircraft", [stage + "/faa", "--output", output]),
                                  ("emit-aircraft", [stage + "/faa", "--output", output + "/public", "--redact", "individuals"]),
                                  ("ingest-faa", [faa, "--output", stage + "/faa-real", "--master-optional"]),
                                  ("emit-aircraft-index", [stage + "/faa-real", "--output", output, "--icao-types", types.path, "--modes", modes.path])] {
            let run = try TestPaths.run(tool, arguments)
            guard run.status == 0 else { Issue.record("\(tool): \(run.stderr)"); return false }
        }
        // Examples that read a file of the project (`enrich --from input/…`) find it.
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("input"), withDestinationURL: TestPaths.input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["pipelines/birds", birds.path, output]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["BIN": TestPaths.executable("emit-birds").deletingLastPathComponent().path]) { $1 }
        process.currentDirectoryURL = TestPaths.packageRoot
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Runs one example from `directory` (so `output/…` paths resolve there).
    static func run(_ example: Example, in directory: URL) throws -> [String] {
        var arguments = words(example.command)
        let tool = arguments.removeFirst()
        let process = Process()
        process.executableURL = TestPaths.executable(tool)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test("every $ fieldguide example in README.md matches the command's output")
    func examples() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let examples = Self.examples(in: lines).filter { $0.command.hasPrefix("fieldguide ") }
        #expect(examples.count >= 6)
        let directory = try TestPaths.temporaryDirectory("readme")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard try Self.buildArtifacts(in: directory) else { return }
        let update = ProcessInfo.processInfo.environment["README_UPDATE"] == "1"
        for example in examples.reversed() {
            let actual = try Self.run(example, in: directory)
            let expected = lines[example.output]
            if Self.matches(expected[...], actual[...]) { continue }
            if update {
                lines.replaceSubrange(example.output, with: Self.elided(expected: Array(expected), actual: actual))
            } else {
                Issue.record("README.md:\(example.commandLine + 1): `\(example.command)` prints:\n\(actual.joined(separator: "\n"))\n(run make readme-examples to update)")
            }
        }
        if update { try lines.joined(separator: "\n").write(to: Self.readme, atomically: true, encoding: .utf8) }
    }

    /// The actual output, cut as the old example was: its number of lines before a `...`.
    static func elided(expected: [String], actual: [String]) -> [String] {
        guard let cut = expected.firstIndex(of: "..."), cut < actual.count else { return actual }
        return Array(actual.prefix(cut)) + ["..."]
    }

    @Test("the matcher: exact lines, ... for any run of lines, quoted words, comments")
    func matcher() {
        #expect(Self.matches(["a", "...", "d"], ["a", "b", "c", "d"]))
        #expect(Self.matches(["a", "..."], ["a"]))
        #expect(!Self.matches(["a", "c"], ["a", "b"]))
        #expect(!Self.matches(["a"], ["a", "b"]))
        #expect(Self.words(#"frequency "Ivory Gull" --region Svalbard   # a note"#) == ["frequency", "Ivory Gull", "--region", "Svalbard"])
        #expect(Self.words(#"watchlist --rules '[{"type": "shape"}]'"#) == ["watchlist", "--rules", #"[{"type": "shape"}]"#])
    }
}
