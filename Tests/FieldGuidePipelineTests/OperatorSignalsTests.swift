import FieldGuideCore
@testable import FieldGuidePipeline
import FieldGuideWebhook
import Foundation
import Testing
import TestSupport

@Suite("Metrics: the Prometheus text format, each run")
struct MetricsTests {
    /// Checks `text` line by line against the exposition format (0.0.4): every line a
    /// `# HELP`, a `# TYPE name gauge` or a sample `name{label="value",…} number`, each
    /// metric's HELP and TYPE before its samples and once, labels well escaped, no duplicate
    /// series. Returns the samples by series (`name{labels}`).
    static func parse(_ text: String) throws -> [String: Double] {
        #expect(text.hasSuffix("\n"))
        let name = "[a-zA-Z_:][a-zA-Z0-9_:]*"
        let label = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\""
        let sampleRE = try Regex("^(\(name))(\\{(?:\(label))(?:,\(label))*\\})? (-?[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?|NaN|[+-]Inf)$")
        let helpRE = try Regex("^# HELP (\(name)) .+$"), typeRE = try Regex("^# TYPE (\(name)) (gauge|counter|untyped)$")
        var typed = Set<String>(), helped = Set<String>()
        var samples: [String: Double] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let line = String(line)
            if let m = line.wholeMatch(of: helpRE) {
                #expect(helped.insert(String(m.output[1].substring!)).inserted, "line \(number + 1): a second HELP")
            } else if let m = line.wholeMatch(of: typeRE) {
                #expect(typed.insert(String(m.output[1].substring!)).inserted, "line \(number + 1): a second TYPE")
            } else if let m = line.wholeMatch(of: sampleRE) {
                let metric = String(m.output[1].substring!)
                #expect(typed.contains(metric) && helped.contains(metric), "line \(number + 1): \(metric) before its HELP and TYPE")
                let series = metric + String(m.output[2].substring ?? "")
                #expect(samples[series] == nil, "line \(number + 1): duplicate series \(series)")
                samples[series] = Double(String(m.output[3].substring!))
            } else {
                Issue.record("line \(number + 1) is not in the exposition format: \(line)")
            }
        }
        return samples
    }

    @Test("a label value with quotes, backslashes and a line feed is escaped; numbers print as Prometheus reads them")
    func escaping() throws {
        var text = MetricsText(labels: [("pipeline", "a\"b\\c\nd")])
        text.metric("x_total", "help with a \\ and\na line feed")
        text.sample(3)
        text.sample(0.25, [("stage", "s")])
        text.sample(1_763_976_000.5, [("stage", "t")])
        #expect(text.text == """
            # HELP x_total help with a \\\\ and\\na line feed
            # TYPE x_total gauge
            x_total{pipeline="a\\"b\\\\c\\nd"} 3
            x_total{pipeline="a\\"b\\\\c\\nd",stage="s"} 0.25
            x_total{pipeline="a\\"b\\\\c\\nd",stage="t"} 1763976000.5

            """)
        #expect(try Self.parse(text.text).count == 3)
    }
}

@Suite("Webhook: the POST, its time-out, a server that fails")
struct WebhookTests {
    @Test("a 2xx is delivered with the body, a 500 is rejected, a silent server times out, a closed port is refused")
    func outcomes() throws {
        let ok = try LocalHTTPServer(status: 204)
        defer { ok.stop() }
        #expect(try Webhook(url: ok.url, timeout: 5).post(Data("{\"a\":1}".utf8)) == .delivered(status: 204))
        #expect(ok.received == [Data("{\"a\":1}".utf8)])

        let failing = try LocalHTTPServer(status: 500)
        defer { failing.stop() }
        #expect(try Webhook(url: failing.url, timeout: 5).post(Data("{}".utf8)) == .rejected(status: 500))

        let silent = try LocalHTTPServer(status: 200, answer: false)
        defer { silent.stop() }
        let start = ContinuousClock.now
        #expect(try Webhook(url: silent.url, timeout: 1).post(Data("{}".utf8)) == .failed("did not answer within 1 s"))
        #expect(ContinuousClock.now - start < .seconds(4))

        let closed = try LocalHTTPServer(status: 200)
        let port = closed.port
        closed.stop()
        #expect(try Webhook(url: "http://127.0.0.1:\(port)/hook", timeout: 2).post(Data()) == .failed("could not be reached: connection refused"))
    }

    @Test("an address that is not http(s) is refused before anything is sent")
    func address() {
        #expect(throws: Webhook.AddressError.self) { try Webhook(url: "ftp://example.org/x", timeout: 1) }
        #expect(throws: Webhook.AddressError.self) { try Webhook(url: "not a url", timeout: 1) }
    }
}

@Suite("Operator signals through `pipeline run`: metrics.prom and the webhook")
struct OperatorSignalsRunTests {
    func metrics(_ h: NightlyHarness) throws -> [String: Double] {
        try MetricsTests.parse(String(contentsOfFile: h.output + "/metrics.prom", encoding: .utf8))
    }

    @Test("metrics.prom each run: status, durations, rows, guards; the last success survives a refused run")
    func metricsEachRun() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        #expect(try h.run().status == 0)
        let first = try metrics(h)
        let p = "pipeline=\"nightly\""
        #expect(first["fieldguide_run_success{\(p)}"] == 1)
        #expect(first["fieldguide_run_status{\(p),status=\"published\"}"] == 1)
        #expect(first["fieldguide_run_status{\(p),status=\"refused\"}"] == 0)
        #expect(first["fieldguide_stage_rows{\(p),stage=\"ingest-faa\",kind=\"read\"}"] == 63)   // ACFTREF, ENGINE, MASTER, DEREG and RESERVED rows of input/faa
        #expect(first["fieldguide_stage_ran{\(p),stage=\"emit-aircraft\"}"] == 1)
        #expect((first["fieldguide_stage_duration_seconds{\(p),stage=\"ingest-faa\"}"] ?? 0) > 0)
        #expect(first["fieldguide_guard_held{\(p),guard=\"min_rows MASTER\"}"] == 1)
        #expect(first["fieldguide_guards{\(p),outcome=\"refused\"}"] == 0)
        let success = try #require(first["fieldguide_last_success_timestamp_seconds{\(p)}"])
        #expect(abs(success - Date().timeIntervalSince1970) < 600)

        try h.renameOwner()
        #expect(try h.run(["--set", "MASTER_MIN_ROWS=100"]).status == 1)
        let refused = try metrics(h)
        #expect(refused["fieldguide_run_success{\(p)}"] == 0)
        #expect(refused["fieldguide_run_status{\(p),status=\"refused\"}"] == 1)
        #expect(refused["fieldguide_guard_held{\(p),guard=\"min_rows MASTER\"}"] == 0)
        #expect(refused["fieldguide_guards{\(p),outcome=\"refused\"}"] == 1)
        #expect(refused["fieldguide_last_success_timestamp_seconds{\(p)}"] == success)
        #expect(refused["fieldguide_run_end_timestamp_seconds{\(p)}"]! > success)
        // No temporary file is left beside it for the collector to read.
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.output).filter { $0.contains("metrics") } == ["metrics.prom"])
    }

    @Test("a refused run POSTs its summary; a webhook that answers 500 or not at all is logged, the result and exit status unchanged")
    func webhook() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let hook = try LocalHTTPServer(status: 200)
        defer { hook.stop() }
        // A published run without warnings tells nobody.
        let quiet = try h.run(["--set", "WEBHOOK_URL=\(hook.url)"])
        #expect(quiet.status == 0)
        #expect(hook.received.isEmpty)

        try h.renameOwner()
        let refused = try h.run(["--set", "WEBHOOK_URL=\(hook.url)", "--set", "MASTER_MIN_ROWS=100"])
        #expect(refused.status == 1)
        #expect(refused.log.contains("pipeline: webhook 127.0.0.1:\(hook.port) told (refused): HTTP 200"), "\(refused.log)")
        let posted = try JSONDecoder().decode(RunSummary.self, from: try #require(hook.received.first))
        #expect(posted.status == .refused && posted.run == refused.summary?.run)
        #expect(posted.guards.contains { $0.name == "min_rows MASTER" && !$0.held })

        // The same refusal with a webhook that fails, or says nothing (from the environment).
        let failing = try LocalHTTPServer(status: 500)
        defer { failing.stop() }
        let logged = try h.run(["--set", "WEBHOOK_URL=\(failing.url)", "--set", "MASTER_MIN_ROWS=100"])
        #expect(logged.status == 1 && logged.summary?.status == .refused)
        #expect(logged.log.contains("webhook 127.0.0.1:\(failing.port) answered HTTP 500; not delivered (the run's result stands)"))
        let silent = try LocalHTTPServer(status: 200, answer: false)
        defer { silent.stop() }
        let timedOut = try h.run(["--set", "MASTER_MIN_ROWS=100"], environment: ["SOURCE_DATE_EPOCH": "1763769600", "FIELDGUIDE_WEBHOOK_URL": silent.url])
        #expect(timedOut.status == 1 && timedOut.summary?.status == .refused)
        #expect(timedOut.log.contains("webhook 127.0.0.1:\(silent.port) did not answer within 10 s; not delivered (the run's result stands)"), "\(timedOut.log)")
        // A down webhook on a run that publishes with a warning: still published, exit 0.
        silent.stop()
        try OperatorGuardRunTests.age(h, "MASTER", days: 10)
        let warned = try h.run(["--set", "WEBHOOK_URL=http://127.0.0.1:\(silent.port)/hook"])
        #expect(warned.status == 0, "\(warned.log)")
        #expect(warned.summary?.status == .published)
        #expect(warned.log.contains("could not be reached: connection refused; not delivered (the run's result stands)"), "\(warned.log)")
    }

    @Test("a webhook address that is not http(s) stops the run before any stage (exit 2)")
    func badAddress() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let bad = try h.run(["--set", "WEBHOOK_URL=mailto:ops@example.org"])
        #expect(bad.status == 2)
        #expect(bad.log.contains("pipelines/nightly.yaml: notify.webhook: expected an http:// or https:// address with a host, found 'mailto:ops@example.org'"), "\(bad.log)")
        #expect(!FileManager.default.fileExists(atPath: h.output + "/current"))
    }
}
