import FieldGuideCore
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// `fetch-faa` through the built executable against a local server: every answer a real
/// server gives, and what the stage leaves (output, kept downloads, validators) after each.
@Suite("fetch-faa against a local HTTP server")
struct FetchExecutableTests {
    /// A fresh output directory (its own state: no --state), removed by the caller.
    private func output() throws -> String { try TestPaths.temporaryDirectory("fetch-out").path }

    private func state(in directory: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/fetch-state.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test("200 with validators, then 304: the validators are sent back, the kept ZIP stands, exit 0 both times")
    func conditional() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { head, _ in
            if head.headers["If-None-Match"].first == "\"v1\"" { return Reply(status: .notModified) }
            return Reply(headers: [("ETag", "\"v1\""), ("Last-Modified", "Mon, 23 Nov 2026 23:31:02 GMT")], body: zip)
        }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }

        let first = try FetchFixtures.run(server.url, output: out)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("200 OK: \(zip.count) bytes, sha256 \(FetchFixtures.sha256(zip)); a ZIP holding ACFTREF.txt, ENGINE.txt, MASTER.txt"))
        #expect(FileManager.default.contents(atPath: out + "/ReleasableAircraft.zip") == Data(zip))
        let report = try StageReport.read(from: out + "/fetch-faa.json")
        #expect(report.status == .ok && report.counts["httpStatus"] == 200 && report.output(named: "ReleasableAircraft.zip")?.sha256 == FetchFixtures.sha256(zip))

        let second = try FetchFixtures.run(server.url, output: out)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("304 Not Modified"))
        let sent = server.requests[1].headers
        #expect(sent["If-None-Match"] == ["\"v1\""] && sent["If-Modified-Since"] == ["Mon, 23 Nov 2026 23:31:02 GMT"])
        #expect(server.requests[0].headers["If-None-Match"].isEmpty)
        #expect(sent["User-Agent"].first?.hasPrefix("FieldGuide/") == true)
        #expect(FileManager.default.contents(atPath: out + "/ReleasableAircraft.zip") == Data(zip))
        #expect(try StageReport.read(from: out + "/fetch-faa.json").counts["httpStatus"] == 304)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".lock", "ReleasableAircraft.zip", "downloads", "fetch-faa.json", "fetch-state.json"])
    }

    @Test("403 is a clear error naming the address and the status, exit 2, never retried; output and state untouched")
    func forbidden() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, n in n == 0 ? Reply(headers: [("ETag", "\"a\"")], body: zip) : .status(.forbidden, "no bots") }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try FetchFixtures.run(server.url, output: out).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/fetch-state.json"))

        let refused = try FetchFixtures.run(server.url, output: out, ["--user-agent", "curl/8.0", "--retries", "3"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("fetch-faa: error: \(server.url): the server answered 403 Forbidden; not retried"))
        #expect(refused.stderr.contains("--user-agent"))
        #expect(server.requests.count == 2)
        #expect(server.requests[1].headers["User-Agent"] == ["curl/8.0"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/fetch-state.json")) == before)
        #expect(FileManager.default.contents(atPath: out + "/ReleasableAircraft.zip") == Data(zip))
    }

    @Test("404 is exit 2 without a retry")
    func notFound() throws {
        let server = try TestHTTPServer { _, _ in .status(.notFound) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out)
        #expect(result.status == 2 && result.stderr.contains("the server answered 404 Not Found; not retried"))
        #expect(server.requests.count == 1)
        #expect(!FileManager.default.fileExists(atPath: out + "/ReleasableAircraft.zip"))
    }

    @Test("500 then 200: retried after the backoff, exit 0")
    func retryThenSuccess() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, n in n == 0 ? .status(.internalServerError, "busy") : Reply(body: zip) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("attempt 1 failed: the server answered 500 Internal Server Error; retry 1 of 3 in 0.05 s"))
        #expect(server.requests.count == 2)
        #expect(try StageReport.read(from: out + "/fetch-faa.json").counts["attempts"] == 2)
        #expect(FileManager.default.contents(atPath: out + "/ReleasableAircraft.zip") == Data(zip))
    }

    @Test("5xx on every attempt: bounded by --retries, exit 2 naming the last failure")
    func retriesExhausted() throws {
        let server = try TestHTTPServer { _, _ in .status(.serviceUnavailable) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out, ["--retries", "2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(server.url): all 3 attempts failed; the last: the server answered 503 Service Unavailable"))
        #expect(server.requests.count == 3)
    }

    @Test("a server slower than --timeout: each attempt times out, retried, then exit 2")
    func slowServer() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, _ in Reply(body: zip, delay: .seconds(3)) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let started = ContinuousClock.now
        let result = try FetchFixtures.run(server.url, output: out, ["--timeout", "0.3", "--retries", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("all 2 attempts failed; the last: no byte from 127.0.0.1:\(server.port) for 0.3 s (time-out)"), "\(result.stderr)")
        #expect(server.requests.count == 2)
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(!FileManager.default.fileExists(atPath: out + "/ReleasableAircraft.zip"))
    }

    @Test("a body shorter than its Content-Length: truncated, exit 1, nothing kept")
    func truncated() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, _ in Reply(body: zip, truncateAfter: zip.count / 2) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(server.url): truncated body: expected \(zip.count) bytes (Content-Length), received \(zip.count / 2); nothing kept"))
        #expect(!FileManager.default.fileExists(atPath: out + "/ReleasableAircraft.zip"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/downloads").isEmpty)
    }

    @Test("an HTML error page served with 200 as the ZIP: exit 1, said to be an HTML page")
    func htmlPage() throws {
        let server = try TestHTTPServer { _, _ in Reply(headers: [("Content-Type", "text/html")], body: FetchFixtures.htmlPage) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out)
        #expect(result.status == 1)
        #expect(result.stderr.contains("fetch-faa: error: \(server.url): expected a ZIP archive, found an HTML page (\"<!DOCTYPE html> <html><head><title>Acces…\"); nothing kept"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error Domain") && !result.stderr.contains("ArchiveError"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/downloads").isEmpty)
    }

    @Test("a ZIP without MASTER.txt: exit 1, naming the missing file and what the ZIP holds")
    func zipMissingMaster() throws {
        let zip = try FetchFixtures.zip(removing: ["MASTER.txt"], extra: ["DEALER.txt": "x\r\n"])
        let server = try TestHTTPServer { _, _ in Reply(body: zip) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FetchFixtures.run(server.url, output: out)
        #expect(result.status == 1)
        #expect(result.stderr.contains("expected MASTER.txt or its parts MASTER-1.txt…, found none (the ZIP holds ACFTREF.txt, DEALER.txt, ENGINE.txt)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/ReleasableAircraft.zip"))
    }

    @Test("a body over --max-bytes: refused by its Content-Length before reading, or while streaming when chunked; exit 1")
    func overBound() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, n in Reply(body: zip, chunked: n > 0) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let declared = try FetchFixtures.run(server.url, output: out, ["--max-bytes", "2K"])
        #expect(declared.status == 1)
        #expect(declared.stderr.contains("expected a body of at most 2 KiB (--max-bytes), found Content-Length \(zip.count); refused before reading it"))
        let streamed = try FetchFixtures.run(server.url, output: out, ["--max-bytes", "2K"])
        #expect(streamed.status == 1)
        #expect(streamed.stderr.contains("expected a body of at most 2 KiB (--max-bytes), found more coming after"), "\(streamed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/downloads").isEmpty)
        // The same chunked body within the bound is accepted.
        #expect(try FetchFixtures.run(server.url, output: out).status == 0)
    }

    @Test("the last --keep distinct downloads are kept with their SHA-256; older ones and strays deleted")
    func keepsLastN() throws {
        let versions = try (0..<3).map { try FetchFixtures.zip(extra: ["VERSION.txt": "\($0)"]) }
        let server = try TestHTTPServer { _, n in Reply(headers: [("ETag", "\"\(n)\"")], body: versions[min(n, 2)]) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try FetchFixtures.run(server.url, output: out, ["--keep", "2"]).status == 0)
        // What a killed fetch or a lost state leaves in downloads/ is swept under the lock.
        for stray in [".incoming.zip.tmp-99-1", "incoming.zip", "ReleasableAircraft-0000000000000000.zip"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/downloads/" + stray))
        }
        for _ in 0..<2 { #expect(try FetchFixtures.run(server.url, output: out, ["--keep", "2"]).status == 0) }
        let downloads = try state(in: out)["downloads"] as? [[String: Any]] ?? []
        #expect(downloads.map { $0["sha256"] as? String } == [FetchFixtures.sha256(versions[2]), FetchFixtures.sha256(versions[1])])
        for entry in downloads {
            let file = out + "/" + (entry["file"] as? String ?? "")
            #expect(try FileDigest.sha256(ofFileAt: file).digest == entry["sha256"] as? String)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/downloads").count == 2)
        #expect(downloads.first?["etag"] as? String == "\"2\"")
    }

    @Test("a kept download damaged on disk is not trusted: the next request is unconditional")
    func damagedKeptCopy() throws {
        let zip = try FetchFixtures.zip()
        let server = try TestHTTPServer { _, _ in Reply(headers: [("ETag", "\"v\"")], body: zip) }
        defer { server.stop() }
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try FetchFixtures.run(server.url, output: out).status == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: out + "/downloads").filter { $0.hasSuffix(".zip") }
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: out + "/downloads/" + kept[0]))
        let again = try FetchFixtures.run(server.url, output: out)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.requests[1].headers["If-None-Match"].isEmpty)
        #expect(try FileDigest.sha256(ofFileAt: out + "/downloads/" + kept[0]).digest == FetchFixtures.sha256(zip))
    }

    @Test("usage mistakes: not an http(s) address, a bad --max-bytes, --keep or --timeout out of range, nothing listening: exit 2")
    func usage() throws {
        let out = try output()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let ftp = try FetchFixtures.run("ftp://example.org/ReleasableAircraft.zip", output: out)
        #expect(ftp.status == 2 && ftp.stderr.contains("expected an http:// or https:// address, found 'ftp://example.org/ReleasableAircraft.zip'"))
        let bytes = try FetchFixtures.run("http://127.0.0.1:9/x.zip", output: out, ["--max-bytes", "lots"])
        #expect(bytes.status == 2 && bytes.stderr.contains("--max-bytes: expected a byte count such as 1G, 512M or 4096, found 'lots'"))
        let keep = try FetchFixtures.run("http://127.0.0.1:9/x.zip", output: out, ["--keep", "50"])
        #expect(keep.status == 2 && keep.stderr.contains("--keep must be between 1 and 20, found 50"))
        let timeout = try FetchFixtures.run("http://127.0.0.1:9/x.zip", output: out, ["--timeout", "0"])   // said "between 0 and 3600"
        #expect(timeout.status == 2 && timeout.stderr.contains("--timeout must be above 0 and at most 3600 seconds, found 0.0"), "\(timeout.stderr)")
        // Port 9 (discard) has no listener here: every attempt fails to connect.
        let closed = try FetchFixtures.run("http://127.0.0.1:9/x.zip", output: out, ["--retries", "1", "--timeout", "0.5"])
        #expect(closed.status == 2, "\(closed.stderr)")
        #expect(closed.stderr.contains("http://127.0.0.1:9/x.zip: all 2 attempts failed; the last: "), "\(closed.stderr)")
        #expect(!closed.stderr.contains("NIO") && !closed.stderr.contains("HTTPClientError"), "\(closed.stderr)")
    }
}
