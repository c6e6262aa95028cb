import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Posts a JSON body to an operator's webhook, with a time-out, and says how it went: a
/// notification that fails is the caller's to log, never a reason to change a run's result.
///
/// Uses AsyncHTTPClient, the client fetch-faa uses; only the `pipeline` executable links this
/// target, never the query library. (It used Foundation's `URLSession`, which on Linux is
/// libcurl: linking it loaded some thirty shared libraries into every `pipeline` process,
/// about 11 ms of each start, a webhook configured or not.)
///
/// ```swift
/// let hook = try Webhook(url: "http://127.0.0.1:9093/fieldguide", timeout: 10)
/// switch hook.post(Data(summaryJSON)) {
/// case .delivered(let status): print("answered \(status)")
/// case .rejected(let status): print("answered \(status); the run's result stands")
/// case .failed(let reason): print(reason)
/// }
/// ```
public struct Webhook: Sendable {
    /// How a post went.
    public enum Outcome: Sendable, Equatable {
        /// The server answered 2xx.
        case delivered(status: Int)
        /// The server answered, but not 2xx.
        case rejected(status: Int)
        /// No answer: refused, unreachable, or past the time-out.
        case failed(String)
    }

    /// Why a webhook address cannot be used.
    public struct AddressError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let url: URL
    /// Seconds the whole post may take.
    public let timeout: Double

    /// An `http` or `https` address with a host; anything else is an `AddressError`.
    public init(url text: String, timeout: Double) throws(AddressError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw AddressError(description: "expected an http:// or https:// address with a host, found '\(text)'")
        }
        self.url = url
        self.timeout = max(0.1, timeout)
    }

    /// Posts `body` as `application/json` and waits for the answer, at most `timeout` seconds
    /// (connecting, sending and the answer together). Redirects are not followed: a webhook
    /// that answers 3xx has not taken the notification.
    public func post(_ body: Data, userAgent: String = "fieldguide-pipeline") -> Outcome {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url.absoluteString, method: .POST,
                                             headers: ["Content-Type": "application/json", "User-Agent": userAgent],
                                             body: .bytes(body))
        } catch {
            return .failed("could not be reached: \(Self.reason(error))")
        }
        let milliseconds = Int64((timeout * 1000).rounded(.up))
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .milliseconds(milliseconds), read: .milliseconds(milliseconds))
        let client = HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
        defer { try? client.syncShutdown() }
        do {
            let response = try client.execute(request: request, deadline: .now() + .milliseconds(milliseconds)).wait()
            let status = Int(response.status.code)
            return (200..<300).contains(status) ? .delivered(status: status) : .rejected(status: status)
        } catch {
            if Self.isTimeout(error) { return .failed("did not answer within \(Self.seconds(timeout))") }
            return .failed("could not be reached: \(Self.reason(error))")
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    private static func isTimeout(_ error: any Error) -> Bool {
        guard let error = error as? HTTPClientError else { return false }
        return [.readTimeout, .connectTimeout, .deadlineExceeded].contains(error)
    }

    /// A network error in words, without the library's type names and codes.
    static func reason(_ error: any Error) -> String {
        if let connect = error as? NIOConnectionError {
            if let errno = connect.connectionErrors.lazy.compactMap({ ($0.error as? IOError)?.errnoCode }).first {
                return words(errno: errno)
            }
            return connect.dnsAError != nil || connect.dnsAAAAError != nil ? "unknown host" : "no connection"
        }
        if let io = error as? IOError { return words(errno: io.errnoCode) }
        if error is SocketAddressError { return "unknown host" }
        if error is NIOSSLError || error is BoringSSLError { return "the TLS handshake failed" }
        if let client = error as? HTTPClientError {
            switch client {
            case .remoteConnectionClosed: return "the connection was closed before an answer"
            case .invalidURL, .emptyHost, .emptyScheme: return "cannot use the address"
            default: return "the connection failed"
            }
        }
        return "the connection failed"
    }

    private static func words(errno: Int32) -> String {
        switch errno {
        case ECONNREFUSED: "connection refused"
        case ENETUNREACH, EHOSTUNREACH: "the network or host is unreachable"
        case ECONNRESET, EPIPE: "the connection was lost"
        default: String(cString: strerror(errno))
        }
    }
}
