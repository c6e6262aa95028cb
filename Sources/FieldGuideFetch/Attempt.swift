import AsyncHTTPClient
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A failure the next attempt may not meet: a 5xx answer, a time-out, a failed connection.
struct Transient: Error {
    /// In words, for the log and for ``FetchError/gaveUp(url:attempts:last:)``.
    let reason: String
}

/// What one successful attempt got.
enum AttemptOutcome {
    /// 304: the kept download stands.
    case notModified
    /// 200: the body, complete, in `path` (not yet checked to be a ZIP).
    case body(path: String, sha256: String, bytes: Int, etag: String?, lastModified: String?)
}

/// One GET of the options' address: conditional when `validators` are given, the body
/// streamed to `incoming` with its SHA-256 taken on the way and its size checked against the
/// bound and the `Content-Length`.
struct Attempt {
    let client: HTTPClient
    let options: FetchOptions
    let validators: FetchState.Download?
    /// Where the body is written (atomically: the file appears only once complete).
    let incoming: String

    func run() async throws -> AttemptOutcome {
        var request = HTTPClientRequest(url: options.url)
        request.headers.add(name: "User-Agent", value: options.userAgent)
        if let etag = validators?.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = validators?.lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        let response: HTTPClientResponse
        do { response = try await client.execute(request, timeout: .milliseconds(Int64(options.maxTime * 1000))) } catch {
            throw Transient(reason: describe(error, received: nil))
        }
        let code = Int(response.status.code)
        switch code {
        case 304:
            guard validators != nil else {
                throw FetchError.refused(url: options.url, status: code, reason: "Not Modified to a request without validators")
            }
            return .notModified
        case 200: break
        case 500...599: throw Transient(reason: "the server answered \(code) \(response.status.reasonPhrase)")
        default: throw FetchError.refused(url: options.url, status: code, reason: response.status.reasonPhrase)
        }
        let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
        if let declared, declared > options.maxBytes {
            throw FetchError.tooLarge(url: options.url, limit: options.maxBytes, found: "Content-Length \(declared); refused before reading it")
        }
        let (sha256, received) = try await stream(response.body, declared: declared)
        return .body(path: incoming, sha256: sha256, bytes: received, etag: response.headers.first(name: "ETag"),
                     lastModified: response.headers.first(name: "Last-Modified"))
    }

    /// Writes the body to `incoming`, refusing it once past the bound; the file appears only
    /// when every declared byte came.
    private func stream(_ body: HTTPClientResponse.Body, declared: Int?) async throws -> (String, Int) {
        let writer: AtomicFileWriter
        do { writer = try AtomicFileWriter(path: incoming) } catch { throw FetchError.io(error.description) }
        var digest = StreamingDigest()
        do {
            for try await buffer in body {
                guard digest.bytes + buffer.readableBytes <= options.maxBytes else {
                    throw FetchError.tooLarge(url: options.url, limit: options.maxBytes,
                                              found: "more coming after \(digest.bytes + buffer.readableBytes) bytes; refused while streaming")
                }
                try buffer.withUnsafeReadableBytes { bytes in
                    digest.update(bytes)
                    try writer.write(bytes)
                }
            }
        } catch let error as FetchError {
            writer.abort()
            throw error
        } catch let error as LocatedError {
            writer.abort()
            throw FetchError.io("\(incoming): cannot write the download: \(error.message)")
        } catch {
            writer.abort()
            // A time-out mid-body may pass on the next attempt; a connection that closed
            // early delivered a truncated body.
            if isTimeout(error) { throw Transient(reason: describe(error, received: digest.bytes)) }
            throw FetchError.truncated(url: options.url, expected: declared, received: digest.bytes)
        }
        if let declared, declared != digest.bytes {
            writer.abort()
            throw FetchError.truncated(url: options.url, expected: declared, received: digest.bytes)
        }
        do { try writer.commit() } catch { throw FetchError.io("\(incoming): cannot write the download: \(error.message)") }
        return (digest.finalize(), digest.bytes)
    }

    private func isTimeout(_ error: any Error) -> Bool {
        guard let error = error as? HTTPClientError else { return false }
        return [.readTimeout, .connectTimeout, .deadlineExceeded].contains(error)
    }

    /// A client or network error in words: never the library's type names.
    private func describe(_ error: any Error, received: Int?) -> String {
        let after = received.map { " after \($0) bytes of the body" } ?? ""
        let host = URL(string: options.url).map { ($0.host ?? "") + ($0.port.map { ":\($0)" } ?? "") } ?? options.url
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "no connection to \(host) within \(seconds(options.timeout)) (time-out)"
            case .readTimeout: return "no byte from \(host) for \(seconds(options.timeout))\(after) (time-out)"
            case .deadlineExceeded: return "the attempt took longer than \(seconds(options.maxTime)) (--max-time)\(after)"
            case .remoteConnectionClosed: return "\(host) closed the connection\(after)"
            case .invalidURL, .emptyHost, .emptyScheme: return "cannot use the address \(options.url)"
            default: return "the connection to \(host) failed\(after)"
            }
        }
        if let io = error as? IOError { return "cannot reach \(host): \(String(cString: strerror(io.errnoCode)))" }
        if let connect = error as? NIOConnectionError {
            let errno = connect.connectionErrors.lazy.compactMap { ($0.error as? IOError)?.errnoCode }.first
            if let errno { return "cannot connect to \(host): \(String(cString: strerror(errno)))" }
            return "cannot connect to \(host)" + (connect.dnsAError != nil ? ": the name does not resolve" : "")
        }
        if error is HTTPParserError { return "\(host) did not answer in HTTP" }
        return "the connection to \(host) failed\(after)"
    }

    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
