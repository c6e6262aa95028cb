import AsyncHTTPClient
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
import Foundation
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a fetch did: the answer, the file now in the output directory, and the attempts it took.
public struct FetchResult: Sendable, Equatable {
    /// 200, or 304 when the kept download stands.
    public var status: Int
    public var sha256: String
    public var bytes: Int
    /// Requests sent (1 without retries).
    public var attempts: Int
    /// The bytes equal the previous download's (a 304, or a 200 with the same SHA-256).
    public var unchanged: Bool
    /// The ZIP's file entries.
    public var entries: [String]
    /// The kept downloads, newest first (relative to the state directory).
    public var kept: [String]
}

/// Downloads `ReleasableAircraft.zip`: a conditional GET with retries and backoff, the body
/// streamed to disk within a size bound, checked to be a ZIP holding the FAA files, kept with
/// its SHA-256 among the last N, then linked into the output directory with the stage report.
///
/// Nothing in the output or the state changes unless the whole download passed every check.
///
/// ```swift
/// let result = try Fetcher(options: FetchOptions(url: url, output: "downloads/faa")) { print($0) }.run()
/// result.status   // 200, or 304 on the next run when the file did not change
/// ```
public struct Fetcher: Sendable {
    public let options: FetchOptions
    let log: @Sendable (String) -> Void

    public init(options: FetchOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
    }

    /// Runs the fetch to the end, blocking the calling thread (for a stage's synchronous `run()`).
    public func run() throws(FetchError) -> FetchResult {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await runAsync()) } catch let error as FetchError { box.result = .failure(error) } catch {
                box.result = .failure(.io("\(options.url): the fetch failed: \(SystemReason.of(error))"))
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The fetch, asynchronously.
    public func runAsync() async throws -> FetchResult {
        try options.validate()
        let state = options.stateDirectory
        let lock = try StateLock(directory: state)
        defer { withExtendedLifetime(lock) {} }
        var record = FetchState.load(from: state) { log("warning: " + $0) }
        record.sweep(in: state, unlisted: false)
        let previous = record.newestIntact(of: options.url, in: state)
        let validators = previous.flatMap { $0.etag == nil && $0.lastModified == nil ? nil : $0 }
        if let validators {
            let conditions = [validators.etag.map { "If-None-Match: \($0)" }, validators.lastModified.map { "If-Modified-Since: \($0)" }]
            log("GET \(options.url) (\(conditions.compactMap { $0 }.joined(separator: ", ")); kept \(validators.sha256.prefix(12))…)")
        } else {
            log("GET \(options.url) (unconditional: \(previous == nil ? "no intact earlier download of it" : "the server sent no validators"))")
        }
        let (outcome, attempts) = try await download(validators: validators)
        var result: FetchResult
        switch outcome {
        case .notModified:
            let kept = previous!
            log("304 Not Modified: \(FetchOptions.fileName) unchanged since \(kept.fetched) (sha256 \(kept.sha256), \(kept.bytes) bytes)")
            result = FetchResult(status: 304, sha256: kept.sha256, bytes: kept.bytes, attempts: attempts, unchanged: true,
                                 entries: [], kept: record.downloads.map(\.file))
        case let .body(path, sha256, bytes, etag, lastModified):
            let entries = try check(path)
            log("200 OK: \(bytes) bytes, sha256 \(sha256); a ZIP holding \(entries.joined(separator: ", "))")
            let name = FetchState.keptName(sha256: sha256)
            if rename(path, state + "/" + name) != 0 {
                unlink(path)
                throw FetchError.io("\(state)/\(name): cannot keep the download: \(SystemReason.errnoText)")
            }
            let download = FetchState.Download(file: name, sha256: sha256, bytes: bytes, url: options.url, fetched: FetchState.now(),
                                               etag: etag, lastModified: lastModified)
            record.record(download, keep: options.keep, in: state)
            try record.save(in: state)
            record.sweep(in: state, unlisted: true)
            result = FetchResult(status: 200, sha256: sha256, bytes: bytes, attempts: attempts, unchanged: previous?.sha256 == sha256,
                                 entries: entries, kept: record.downloads.map(\.file))
            if result.unchanged { log("the same bytes as the download kept before: nothing downstream changes") }
        }
        log("kept \(result.kept.count) of at most \(options.keep) downloads in \(state)/\(FetchState.downloadsDirectory)")
        try publish(state + "/" + record.downloads[0].file, result: result)
        return result
    }

    /// The attempts through one client, shut down after them.
    private func download(validators: FetchState.Download?) async throws -> (AttemptOutcome, Int) {
        let idle = TimeAmount.milliseconds(Int64(options.timeout * 1000))
        let configuration = HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false),
                                                     timeout: .init(connect: idle, read: idle), connectionPool: .init())
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        do {
            let outcome = try await attempts(client, validators: validators)
            try? await client.shutdown()
            return outcome
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The attempts: the first, then one per retry after a transient failure, with backoff.
    private func attempts(_ client: HTTPClient, validators: FetchState.Download?) async throws -> (AttemptOutcome, Int) {
        let attempt = Attempt(client: client, options: options, validators: validators,
                              incoming: options.stateDirectory + "/" + FetchState.downloadsDirectory + "/incoming.zip")
        var last = ""
        for n in 1...(options.retries + 1) {
            if n > 1 {
                let delay = options.delay(beforeRetry: n - 1)
                log("attempt \(n - 1) failed: \(last); retry \(n - 1) of \(options.retries) in \(delay) s")
                try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            }
            do { return (try await attempt.run(), n) } catch let transient as Transient { last = transient.reason }
        }
        throw FetchError.gaveUp(url: options.url, attempts: options.retries + 1, last: last)
    }

    /// Checks the body: a ZIP (an HTML error page said so), holding the FAA files within the
    /// entry bound. A body that fails is deleted.
    private func check(_ path: String) throws(FetchError) -> [String] {
        do { return try FAAArchiveCheck(path: path).entries } catch {
            let head = (FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 64) }) ?? Data()
            unlink(path)
            if !head.starts(with: [0x50, 0x4B]) { throw FetchError.notAnArchive(url: options.url, reason: "expected a ZIP archive, found \(Self.sniff(head))") }
            throw FetchError.notAnArchive(url: options.url, reason: "expected a ZIP of the FAA files, found one that is not: \(error.message)")
        }
    }

    /// What bytes that are not a ZIP look like: `an HTML page ("<!DOCTYPE html>…")`.
    static func sniff(_ head: Data) -> String {
        let text = String(decoding: head.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
        let lower = text.lowercased().drop { $0 == " " || $0 == "\u{FEFF}" }
        if head.isEmpty { return "an empty body" }
        let kind = lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") ? "an HTML page" : lower.hasPrefix("<") ? "markup" : "other bytes"
        return "\(kind) (\"\(text.trimmingCharacters(in: .whitespaces))…\")"
    }

    /// Links (or copies) the kept download into the output directory as `ReleasableAircraft.zip`
    /// and writes the stage report beside it.
    private func publish(_ kept: String, result: FetchResult) throws(FetchError) {
        let target = options.output + "/" + FetchOptions.fileName
        do { try AtomicFile.prepareDirectory(options.output) } catch { throw .io(error.description) }
        let temporary = options.output + "/.\(FetchOptions.fileName).tmp-\(getpid())"
        unlink(temporary)
        if link(kept, temporary) != 0 {
            do { try FileManager.default.copyItem(atPath: kept, toPath: temporary) } catch {
                throw .io("\(target): cannot write: \(SystemReason.of(error))")
            }
        }
        // rename() does nothing when both names already link the same file (a 304 run over
        // an earlier one): the temporary name is removed either way.
        defer { unlink(temporary) }
        guard rename(temporary, target) == 0 else { throw .io("\(target): cannot write: \(SystemReason.errnoText)") }
        let report = StageReport(stage: "fetch-faa", status: .ok, outputs: [.init(file: FetchOptions.fileName, bytes: result.bytes, sha256: result.sha256)],
                                 counts: ["httpStatus": result.status, "attempts": result.attempts, "unchanged": result.unchanged ? 1 : 0,
                                          "downloadsKept": result.kept.count])
        do { try report.write(to: options.output + "/" + FetchOptions.reportName) } catch { throw .io(error.description) }
        log("wrote \(FetchOptions.fileName), \(FetchOptions.reportName) to \(options.output)")
    }
}

/// The result handed from the fetch's task to the waiting thread (written once, before the
/// semaphore is signalled; read after).
private final class ResultBox: @unchecked Sendable {
    var result: Result<FetchResult, FetchError>?
}
