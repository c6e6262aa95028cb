import FieldGuideDiagnostics
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// What a fetching stage needs of a pipeline file: a `url` source (present only when set),
/// a source read `unless` another is present, and `{state}`, a directory kept across runs.
@Suite("Pipeline files: url sources, unless, {state}")
struct FetchedSourceTests {
    static let nightly = DefinitionTests.nightly

    @Test("nightly without FAA_URL: faa-url absent, faa from SOURCES, fetch-faa dropped and nothing fetched")
    func offline() throws {
        let input = TestPaths.input.path
        let plan = try PipelinePlan(try PipelineDefinition.load(path: Self.nightly), parameters: ["SOURCES": input])
        #expect(plan.sources["faa-url"] == [] && plan.sources["faa"] == [input + "/faa"])
        let stages = plan.stages(in: StageLayout(cache: "/c", staging: "/s", keep: "/k"), toolDirectory: "/bin")
        let fetch = try #require(stages.first { $0.name == "fetch-faa" })
        #expect(fetch.dropped == "source 'faa-url' is absent")
        let ingest = try #require(stages.first { $0.name == "ingest-faa" })
        #expect(ingest.dropped == nil && ingest.arguments.first == input + "/faa")
    }

    @Test("nightly with FAA_URL: faa is absent even where SOURCES/faa exists; ingest-faa reads the fetched ZIP; {state} is kept")
    func online() throws {
        let url = "https://registry.faa.gov/database/ReleasableAircraft.zip"
        let plan = try PipelinePlan(try PipelineDefinition.load(path: Self.nightly), parameters: ["SOURCES": TestPaths.input.path, "FAA_URL": url])
        #expect(plan.sources["faa-url"] == [url] && plan.sources["faa"] == [])
        let stages = plan.stages(in: StageLayout(cache: "/c", staging: "/s", keep: "/k"), toolDirectory: "/bin")
        let fetch = try #require(stages.first { $0.name == "fetch-faa" })
        #expect(fetch.dropped == nil && !fetch.cache && fetch.keeps == "/k/fetch-faa")
        #expect(Array(fetch.arguments.prefix(5)) == [url, "--output", "/s/fetch-faa", "--state", "/k/fetch-faa"])
        #expect(fetch.inputs.first?.url == true)
        let ingest = try #require(stages.first { $0.name == "ingest-faa" })
        #expect(ingest.arguments.first == "/c/fetch-faa/ReleasableAircraft.zip")
        #expect(plan.order.firstIndex(of: stages.firstIndex { $0.name == "fetch-faa" }!)! < plan.order.firstIndex(of: stages.firstIndex { $0.name == "ingest-faa" }!)!)
    }

    @Test("a required url source with no address stops the run before any stage")
    func requiredURL() throws {
        let definition = try PipelineDefinition.parse("""
            name: t
            parameters: { URL: "" }
            sources:
              address: { url: "${URL}", required: true }
            stages:
              - { name: get, tool: fetch-faa, inputs: [address], outputs: [a.zip], args: ["{address}", --output, "{out}", --state, "{state}"] }
            """, path: "p.yaml")
        #expect(throws: PipelineError.self) { try PipelinePlan(definition, parameters: ["URL": ""]) }
        let plan = try PipelinePlan(definition, parameters: ["URL": "http://127.0.0.1:1/a.zip"])
        #expect(plan.sources["address"] == ["http://127.0.0.1:1/a.zip"])
    }

    @Test("checks: url is one of the four kinds, unless names another source, 'state' names nothing")
    func checks() throws {
        func error(_ extra: String, stages: String = "  - { name: a, tool: x, inputs: [faa], args: [\"{faa}\"] }") -> String? {
            do {
                _ = try PipelineDefinition.parse(DefinitionTests.yaml(stages: stages, extra: extra), path: "p.yaml")
                return nil
            } catch { return error.description }
        }
        #expect(error("  u: { url: \"x\", path: \"y\" }")?.contains("expected exactly one of path, paths, glob or url, found 2") == true)
        #expect(error("  u: { path: \"y\", unless: nowhere }")?.contains("expected another source's name (one without unless of its own), found 'nowhere'") == true)
        #expect(error("  u: { path: \"y\", unless: u }") != nil)
        #expect(error("  state: { path: \"y\" }")?.contains("cannot name a source") == true)
        #expect(error("", stages: "  - { name: a, tool: x, inputs: [faa], args: [\"{faa}\", \"{state}\", \"{out}\"] }") == nil)
        #expect(error("", stages: "  - { name: a, tool: x, inputs: [faa], args: [\"{stat}\"] }")?.contains("{out}, {state}, {run} or {published}") == true)
    }
}
