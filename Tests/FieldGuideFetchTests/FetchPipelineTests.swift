import FieldGuideCore
import FieldGuidePipeline
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// `pipelines/nightly.yaml` with FAA_URL set, through the `pipeline` executable: fetch →
/// ingest → publish, then a 304 that ends `unchanged`, then a bad download that leaves the
/// published build alone.
@Suite("the nightly pipeline fetching the FAA files")
struct FetchPipelineTests {
    struct Run {
        var status: Int32
        var log: String
        var summary: RunSummary?
        func stage(_ name: String) -> RunSummary.Stage? { summary?.stages.first { $0.name == name } }
    }

    /// `ROOT/sources`, a copy of `input/` without faa/ (the FAA files come from the address), and `ROOT/output`.
    static func sourcesWithoutFAA(in root: String) throws -> (sources: String, output: String) {
        let sources = root + "/sources"
        try FileManager.default.copyItem(atPath: TestPaths.input.path, toPath: sources)
        try FileManager.default.removeItem(atPath: sources + "/faa")
        return (sources, root + "/output")
    }

    /// `pipeline run pipelines/nightly.yaml` over `sources` into `output`, with `FAA_URL` when given.
    func run(sources: String, output: String, url: String?) throws -> Run {
        var arguments = ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(sources)", "--output", output,
                         "--bin", (TestPaths.executable("pipeline").path as NSString).deletingLastPathComponent, "--progress", "plain"]
        if let url { arguments += ["--set", "FAA_URL=\(url)", "--set", "FAA_TIMEOUT=2", "--set", "FAA_RETRIES=0"] }
        let result = try TestPaths.run(program: TestPaths.executable("pipeline"), arguments, environment: ["SOURCE_DATE_EPOCH": "1763769600"])
        let log = result.stdout + result.stderr
        let line = log.split(separator: "\n").last { $0.hasPrefix("pipeline: summary in ") }
        let summary = line.flatMap { FileManager.default.contents(atPath: output + "/" + $0.dropFirst("pipeline: summary in ".count)) }
            .flatMap { try? JSONDecoder().decode(RunSummary.self, from: $0) }
        return Run(status: result.status, log: log, summary: summary)
    }

    @Test("fetch → ingest → publish; the second run gets a 304 and ends unchanged; an HTML page leaves the build alone")
    func nightlyFetch() throws {
        let zip = try FetchFixtures.zip()
        let serveHTML = LockedFlag()
        let server = try TestHTTPServer { head, _ in
            if serveHTML.value { return Reply(headers: [("Content-Type", "text/html")], body: FetchFixtures.htmlPage) }
            if head.headers["If-None-Match"].first == "\"n1\"" { return Reply(status: .notModified) }
            return Reply(headers: [("ETag", "\"n1\"")], body: zip)
        }
        defer { server.stop() }
        let root = try TestPaths.temporaryDirectory("fetch-nightly").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (sources, output) = try Self.sourcesWithoutFAA(in: root)

        let first = try run(sources: sources, output: output, url: server.url)
        #expect(first.status == 0, "\(first.log)")
        #expect(first.summary?.status == .published)
        #expect(first.stage("fetch-faa")?.status == .ran && first.stage("ingest-faa")?.status == .ran)
        #expect(first.stage("fetch-faa")?.counts["httpStatus"] == 200)
        let aircraft = FileManager.default.contents(atPath: output + "/aircraft.fgb")
        #expect(aircraft != nil)
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: output + "/current")
        let kept = output + "/.pipeline/nightly/state/fetch-faa/downloads/ReleasableAircraft-\(FetchFixtures.sha256(zip).prefix(16)).zip"
        #expect(FileManager.default.contents(atPath: kept) == Data(zip))

        let second = try run(sources: sources, output: output, url: server.url)
        #expect(second.status == 0, "\(second.log)")
        #expect(second.summary?.status == .unchanged)
        #expect(second.stage("fetch-faa")?.status == .ran && second.stage("fetch-faa")?.counts["httpStatus"] == 304)
        #expect(second.stage("ingest-faa")?.status == .skipped)
        #expect(server.requests.last?.headers["If-None-Match"] == ["\"n1\""])

        serveHTML.value = true
        let third = try run(sources: sources, output: output, url: server.url)
        #expect(third.status == 1, "\(third.log)")
        #expect(third.summary?.status == .failed)
        #expect(third.stage("fetch-faa")?.status == .failed)
        #expect(third.log.contains("\(server.url): expected a ZIP archive, found an HTML page"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output + "/current") == current)
        #expect(FileManager.default.contents(atPath: output + "/aircraft.fgb") == aircraft)
    }

    @Test("without FAA_URL nothing is fetched: fetch-faa is dropped and SOURCES/faa is required")
    func offlineWithoutURL() throws {
        let root = try TestPaths.temporaryDirectory("fetch-offline").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sources = root + "/sources"
        try FileManager.default.copyItem(atPath: TestPaths.input.path, toPath: sources)
        let local = try run(sources: sources, output: root + "/output", url: nil)
        #expect(local.status == 0, "\(local.log)")
        #expect(local.stage("fetch-faa")?.status == .dropped)
        #expect(local.stage("ingest-faa")?.status == .ran)

        try FileManager.default.removeItem(atPath: sources + "/faa")
        let missing = try run(sources: sources, output: root + "/output", url: nil)
        #expect(missing.status == 1)
        #expect(missing.log.contains("source 'faa' is required but \(sources)/faa does not exist"), "\(missing.log)")
    }
}

extension FetchPipelineTests {
    /// `make nightly FAA_URL=…` with `SWIFT=true` (no release build inside a test) and `BIN` at this run's executables.
    func make(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let bin = TestPaths.executable("pipeline").deletingLastPathComponent().path
        let result = try TestPaths.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                       ["make", "--no-print-directory", "SWIFT=true", "BIN=\(bin)", "nightly"] + arguments,
                                       environment: ["SOURCE_DATE_EPOCH": "1763769600"])
        return (result.status, result.stdout + result.stderr)
    }

    @Test("make nightly FAA_URL=…: 0 fetched and published; 2 for a 403, 1 for a ZIP missing MASTER.txt, the build untouched")
    func makeNightly() throws {
        let good = try FetchFixtures.zip(), partial = try FetchFixtures.zip(removing: ["MASTER.txt"])
        let server = try TestHTTPServer { head, _ in
            switch head.uri {
            case "/forbidden.zip": return .status(.forbidden)
            case "/partial.zip": return Reply(body: partial)
            default: return Reply(body: good)
            }
        }
        defer { server.stop() }
        let root = try TestPaths.temporaryDirectory("fetch-make").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (sources, output) = try Self.sourcesWithoutFAA(in: root)
        let base = "http://127.0.0.1:\(server.port)/"

        let ok = try make(["FAA_URL=\(base)ReleasableAircraft.zip", "SOURCES=\(sources)", "OUT=\(output)"])
        #expect(ok.status == 0, "\(ok.output)")
        let aircraft = FileManager.default.contents(atPath: output + "/aircraft.fgb")
        #expect(aircraft != nil)
        let forbidden = try make(["FAA_URL=\(base)forbidden.zip", "SOURCES=\(sources)", "OUT=\(output)"])
        #expect(forbidden.status == 2, "\(forbidden.output)")
        #expect(forbidden.output.contains("\(base)forbidden.zip: the server answered 403 Forbidden; not retried"))
        let missing = try make(["FAA_URL=\(base)partial.zip", "SOURCES=\(sources)", "OUT=\(output)"])
        #expect(missing.status == 1, "\(missing.output)")
        #expect(missing.output.contains("expected MASTER.txt or its parts MASTER-1.txt…, found none"))
        #expect(FileManager.default.contents(atPath: output + "/aircraft.fgb") == aircraft)
    }
}

/// A flag the test flips while the server's handler reads it.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
