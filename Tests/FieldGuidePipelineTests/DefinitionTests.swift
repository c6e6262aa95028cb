import FieldGuideDiagnostics
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

@Suite("Pipeline files: reading, checking, planning")
struct DefinitionTests {
    static let nightly = TestPaths.packageRoot.appendingPathComponent("pipelines/nightly.yaml").path

    /// A minimal valid pipeline with `stages` spliced in.
    static func yaml(stages: String, extra: String = "") -> String {
        """
        name: t
        parameters: { SOURCES: input }
        sources:
          faa: { path: "${SOURCES}/faa", required: true }
        \(extra)
        stages:
        \(stages)
        """
    }

    func parseError(_ text: String) -> LocatedError? {
        do {
            _ = try PipelineDefinition.parse(text, path: "p.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test("the nightly pipeline: emits after their ingests, exports after emit-aircraft and ingest-birds, the one birds emit last")
    func nightlyOrder() throws {
        let definition = try PipelineDefinition.load(path: Self.nightly)
        let order = try definition.stageOrder().map { definition.stages[$0].name }
        func position(_ name: String) -> Int { order.firstIndex(of: name)! }
        #expect(order.count == 10)
        #expect(position("emit-aircraft") < position("record-history") && position("record-history") < position("export-sqlite"))
        #expect(position("ingest-faa") < position("emit-aircraft") && position("ingest-faa") < position("emit-aircraft-index"))
        #expect(position("aggregate-ebd") < position("ingest-birds"))
        #expect(position("emit-aircraft") < position("ingest-exports"))
        #expect(position("ingest-birds") < position("ingest-exports"))
        #expect(position("emit-birds") > position("ingest-exports"))
        // birds.fgb is built once, from the hand-off and the observations; the exports resolve
        // bird names against the hand-off, not a birds artifact.
        #expect(definition.stages.filter { $0.tool == "emit-birds" }.count == 1)
        let exports = try #require(definition.stages.first { $0.name == "ingest-exports" })
        #expect(exports.inputs.contains("ingest-birds") && !exports.inputs.contains { $0.hasSuffix("birds.fgb") })
        let emit = try #require(definition.stages.first { $0.tool == "emit-birds" })
        #expect(emit.inputs == ["ingest-birds", "ingest-exports/observations.csv"])
        // aggregate-ebd depends on nothing, ingest-birds on aggregate-ebd only
        // (its computed bar charts): they may run side by side with the FAA stages.
        let plan = try PipelinePlan(definition, parameters: ["SOURCES": TestPaths.input.path])
        let aggregate = definition.stages.firstIndex { $0.name == "aggregate-ebd" }!
        #expect(plan.dependencies[aggregate].isEmpty)
        #expect(plan.dependencies[definition.stages.firstIndex { $0.name == "ingest-birds" }!] == [aggregate])
        // ingest-faa waits only for fetch-faa (dropped unless FAA_URL is set).
        #expect(plan.dependencies[definition.stages.firstIndex { $0.name == "ingest-faa" }!] == [definition.stages.firstIndex { $0.name == "fetch-faa" }!])
    }

    @Test("sources of the nightly on input/: globs find the companion files, an absent optional source is empty")
    func nightlySources() throws {
        let input = TestPaths.input.path
        let plan = try PipelinePlan(try PipelineDefinition.load(path: Self.nightly), parameters: ["SOURCES": input])
        #expect(plan.sources["faa"] == [input + "/faa"])
        #expect(plan.sources["seeds"] == ["bird_database.json", "home_data.json", "sharedWatchlists.json", "watchlists.json"]
            .map { input + "/birds/" + $0 })
        #expect(plan.sources["taxonomy"] == [input + "/birds/taxonomy/taxonomy.csv"])
        #expect(plan.sources["labels"]?.count == 3)
        #expect(plan.sources["icao-types"] == [input + "/aircraft/icao-types.json"])
        #expect(plan.sources["modes"] == [input + "/aircraft/modes-registrations.json"])
        // Without aircraft/ beside faa/ and birds/, its sources are empty, not an error.
        let partial = try TestPaths.temporaryDirectory("nightly-sources")
        defer { try? FileManager.default.removeItem(at: partial) }
        for name in ["faa", "birds"] {
            try FileManager.default.createSymbolicLink(atPath: partial.path + "/" + name, withDestinationPath: input + "/" + name)
        }
        let without = try PipelinePlan(try PipelineDefinition.load(path: Self.nightly), parameters: ["SOURCES": partial.path])
        #expect(without.sources["icao-types"] == [] && without.sources["modes"] == [])
    }

    @Test("arguments: a reference to several files gives several arguments; an optional group without paths is dropped")
    func arguments() throws {
        let definition = try PipelineDefinition.parse(Self.yaml(stages: """
          - name: a
            tool: a
            inputs: [faa]
            args: ["{faa}", --output, "{out}", [--taxonomy, "{faa}"], "${SOURCES}", "${EMPTY}"]
        """).replacingOccurrences(of: "{ SOURCES: input }", with: #"{ SOURCES: input, EMPTY: "" }"#), path: "p.yaml")
        let input = TestPaths.input.path
        let plan = try PipelinePlan(definition, parameters: ["SOURCES": input])
        let full = plan.arguments(0) { $0 == "out" ? ["OUT"] : ["x.txt", "y.txt"] }
        #expect(full == ["x.txt", "y.txt", "--output", "OUT", "--taxonomy", "x.txt", "y.txt", input])
        let none = plan.arguments(0) { $0 == "out" ? ["OUT"] : [] }
        #expect(none == ["--output", "OUT", input])
    }

    @Test("a YAML syntax error names file, line and column")
    func syntaxError() {
        let error = parseError("name: t\nstages:\n  - name: [unclosed\n")
        #expect(error?.kind == .usage)
        #expect(error?.description.hasPrefix("p.yaml:4:1:") == true, "\(error?.description ?? "")")
    }

    @Test("nesting past libyaml's bound is said in plain words; a file past 1 MiB is refused before it is read (pipeline check: exit 2)")
    func bounds() throws {
        let deep = parseError("name: t\nx: " + String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000) + "\n")
        #expect(deep?.kind == .usage)
        #expect(deep?.description.hasPrefix("p.yaml:2:") == true && deep?.message.hasPrefix("expected lists and mappings nested at most 1,000 deep, found deeper") == true,
                "\(deep?.description ?? "")")
        #expect(deep?.message.contains("yaml_set_max_nest_level") == false)

        let directory = try TestPaths.temporaryDirectory("pipeline-bounds")
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.yaml").path
        try (Self.yaml(stages: "  - name: a") + "#" + String(repeating: "x", count: 1 << 20)).write(toFile: big, atomically: true, encoding: .utf8)
        let error = #expect(throws: LocatedError.self) { try PipelineDefinition.load(path: big) }
        #expect(error?.kind == .usage)
        #expect(error?.description == "\(big): expected a pipeline file of at most 1 MiB, found 1.1 MiB; refused before reading it")
        let check = try TestPaths.run("pipeline", ["check", big])
        #expect(check.status == 2 && check.stderr.contains("expected a pipeline file of at most 1 MiB"), "\(check.stderr)")
        let missing = try TestPaths.run("pipeline", ["check", directory.path + "/none.yaml"])
        #expect(missing.status == 2 && missing.stderr.contains("none.yaml: cannot read the pipeline file: No such file or directory"), "\(missing.stderr)")
        // A directory's size is the largest offset: it once overflowed the size message (a trap, exit 133).
        let folder = try TestPaths.run("pipeline", ["check", directory.path])
        #expect(folder.status == 2 && folder.stderr.contains("cannot read the pipeline file: not a file to read (expected a pipeline file; found a directory)"), "\(folder.stderr)")
    }

    @Test("pipeline check and plan count the stages in agreement: the seed check CI runs has 1 stage")
    func stageCounts() throws {
        let seeds = try TestPaths.run("pipeline", ["check", "pipelines/validate-seeds.yaml"])
        #expect(seeds.status == 0 && seeds.stdout.contains("pipeline validate-seeds, 1 stage (time-outs"), "\(seeds.stdout)")
        let plan = try TestPaths.run("pipeline", ["plan", "pipelines/validate-seeds.yaml"])
        #expect(plan.stdout.hasPrefix("pipeline validate-seeds: 1 stage\n"), "\(plan.stdout)")
        let nightly = try TestPaths.run("pipeline", ["check", "pipelines/nightly.yaml"])
        #expect(nightly.stdout.contains("pipeline nightly, 10 stages (time-outs"), "\(nightly.stdout)")
    }

    @Test("an unknown key is an error at its line, with the keys allowed")
    func unknownKey() {
        let error = parseError(Self.yaml(stages: """
          - name: a
            tool: a
            input: [faa]
        """))
        #expect(error?.description.hasPrefix("p.yaml:9:5: stages[0]: unknown key 'input'; expected one of") == true, "\(error?.description ?? "")")
    }

    @Test("a reference to nothing declared is an error at the input")
    func unknownReference() {
        let error = parseError(Self.yaml(stages: """
          - name: a
            tool: a
            inputs: [faa, b/missing.csv]
        """))
        #expect(error?.description == "p.yaml:9:19: stages[0].inputs[1]: 'b/missing.csv' is not a source, a stage, or a declared output (stage/file)")
    }

    @Test("an argument reference must be a declared input")
    func undeclaredArgument() {
        let error = parseError(Self.yaml(stages: """
          - name: a
            tool: a
            inputs: [faa]
            args: ["{seeds}"]
        """))
        #expect(error?.description.contains("stages[0].args[0]: '{seeds}' is not among the stage's inputs (faa), {out}, {state}, {run} or {published}") == true)
    }

    @Test("a wrong value type says what was expected and what was found")
    func typeMismatch() {
        let error = parseError(Self.yaml(stages: """
          - name: a
            tool: a
            cache: maybe
        """))
        #expect(error?.description.hasPrefix("p.yaml:9:12: stages[0].cache:") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("maybe") == true)
        let list = parseError(Self.yaml(stages: """
          - name: a
            tool: [a, b]
        """))
        let mapping = parseError(Self.yaml(stages: """
          - name: a
            tool: a
            args: {a: 1}
        """))
        #expect(mapping?.description.hasPrefix("p.yaml:9:11: stages[0].args: expected a list, found a mapping") == true, "\(mapping?.description ?? "")")
        // Not Yams' type names ("expected Scalar", "expected Sequence").
        #expect(list?.description.hasPrefix("p.yaml:8:11: stages[0].tool: expected a single value, found a list") == true, "\(list?.description ?? "")")
    }

    @Test("stages that read each other are a cycle")
    func cycle() {
        let error = parseError(Self.yaml(stages: """
          - name: a
            inputs: [b]
          - name: b
            inputs: [a]
        """))
        #expect(error?.description == "p.yaml: the stages a, b read each other's outputs in a cycle")
    }

    @Test("an unknown parameter, in the file or on the command line, is refused")
    func parameters() throws {
        let error = parseError(Self.yaml(stages: """
          - name: a
            args: ["${NOPE}"]
        """))
        #expect(error?.description.contains("unknown parameter '${NOPE}'; parameters are SOURCES") == true)
        let definition = try PipelineDefinition.parse(Self.yaml(stages: "  - name: a"), path: "p.yaml")
        #expect(throws: PipelineError(.invalidDefinition, "p.yaml: no parameter SOURCE to set; parameters are SOURCES")) {
            _ = try PipelinePlan(definition, parameters: ["SOURCE": "x"])
        }
    }

    @Test("a missing required source stops the plan")
    func missingSource() throws {
        let definition = try PipelineDefinition.parse(Self.yaml(stages: "  - name: a"), path: "p.yaml")
        #expect(throws: PipelineError(.missingSource, "source 'faa' is required but /nonexistent/faa does not exist")) {
            _ = try PipelinePlan(definition, parameters: ["SOURCES": "/nonexistent"])
        }
    }

    @Test("globs: ** across directories, character classes, hidden files skipped, sorted")
    func glob() throws {
        let root = try TestPaths.temporaryDirectory("glob").path
        for file in ["a/taxonomy.csv", "a/b/Taxonomy-2.csv", "a/.hidden/taxonomy.csv", "c.txt"] {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        }
        #expect(try Glob.files(matching: root + "/**/*[Tt]axonomy*.csv") == [root + "/a/b/Taxonomy-2.csv", root + "/a/taxonomy.csv"])
        #expect(try Glob.files(matching: root + "/*.txt") == [root + "/c.txt"])
        #expect(try Glob.files(matching: root + "/none/*.txt") == [])
        // A named pipe matches nothing (a stage would wait on it forever); links to `.` and
        // back up add nothing and end.
        #expect(mkfifo(root + "/pipe.txt", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: root + "/a/b/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root + "/a/again", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root + "/a/more", withDestinationPath: ".")
        #expect(try Glob.files(matching: root + "/*.txt") == [root + "/c.txt"])
        #expect(try Glob.files(matching: root + "/**/*[Tt]axonomy*.csv") == [root + "/a/b/Taxonomy-2.csv", root + "/a/taxonomy.csv"])
    }

    @Test("globs: a name that is not UTF-8 where the pattern looks is an I/O error naming it, not a file left out")
    func globNotUTF8() throws {
        let root = try TestPaths.temporaryDirectory("glob-latin1")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("birds"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.path + "/birds/bird_database.json", contents: Data())
        let remove = try TestPaths.createFile(named: Array("caf".utf8) + [0xE9] + Array(".json".utf8), in: root.appendingPathComponent("birds"))
        defer { remove() }
        #expect(try Glob.files(matching: root.path + "/*.csv") == [])
        let error = #expect(throws: PipelineError.self) { try Glob.files(matching: root.path + "/birds/*.json") }
        #expect(error?.kind == .io)
        #expect(error?.message.contains("\(root.path)/birds/caf\\xE9.json: a file name FieldGuide cannot read") == true, "\(String(describing: error))")
    }
}
