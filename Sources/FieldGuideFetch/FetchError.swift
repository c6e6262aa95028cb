import FieldGuideDiagnostics
import Foundation

/// Why a fetch failed, in words that name the address and the answer (never a client
/// library's internals), and whether the data was rejected (exit 1) or the fetch could not
/// be done (exit 2).
///
/// ```swift
/// FetchError.refused(url: "https://example.org/a.zip", status: 403, reason: "Forbidden").isDataRejected   // false
/// ```
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad option or a bad combination of them.
    case usage(String)
    /// A 4xx (or another answer no retry can help): not retried.
    case refused(url: String, status: Int, reason: String)
    /// Every attempt failed with a 5xx, a time-out or a connection failure; `last` says how the last one did.
    case gaveUp(url: String, attempts: Int, last: String)
    /// The body, or its declared length, is past the bound.
    case tooLarge(url: String, limit: Int, found: String)
    /// Fewer (or more) bytes came than the `Content-Length` said, or the connection closed
    /// before the body ended (`expected` nil without a `Content-Length`).
    case truncated(url: String, expected: Int?, received: Int)
    /// The body is not a ZIP holding the expected files.
    case notAnArchive(url: String, reason: String)
    /// The state directory or the output could not be read or written.
    case io(String)

    /// True for the failures a stage reports as data rejected (exit 1): the server answered
    /// with a body, and the body is wrong.
    public var isDataRejected: Bool {
        switch self {
        case .tooLarge, .truncated, .notAnArchive: true
        case .usage, .refused, .gaveUp, .io: false
        }
    }

    public var description: String {
        switch self {
        case .usage(let message), .io(let message): return message
        case let .refused(url, status, reason):
            let hint = status == 403 ? " (some servers, the FAA's among them, refuse unknown clients: try --user-agent)" : ""
            return "\(url): the server answered \(status) \(reason); not retried\(hint)"
        case let .gaveUp(url, attempts, last):
            return "\(url): \(attempts == 1 ? "the only attempt" : "all \(attempts) attempts") failed; the last: \(last)"
        case let .tooLarge(url, limit, found):
            return "\(url): expected a body of at most \(Self.size(limit)) (--max-bytes), found \(found); refused, nothing kept"
        case let .truncated(url, expected, received):
            let wanted = expected.map { "expected \($0) bytes (Content-Length), received \(received)" }
                ?? "the connection closed after \(received) bytes, before the body ended"
            return "\(url): truncated body: \(wanted); nothing kept"
        case let .notAnArchive(url, reason):
            return "\(url): \(reason); nothing kept"
        }
    }

    /// `512 MiB`, `4096 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
