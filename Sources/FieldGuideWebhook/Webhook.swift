import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts a JSON body to an operator's webhook, with a time-out, and says how it went: a
/// notification that fails is the caller's to log, never a reason to change a run's result.
///
/// Uses Foundation's `URLSession` (libcurl on Linux); only the `pipeline` executable links
/// this target, never the query library.
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

    /// Posts `body` as `application/json` and waits for the answer, at most `timeout` seconds.
    public func post(_ body: Data, userAgent: String = "fieldguide-pipeline") -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }

        let answer = Answer()
        let task = session.dataTask(with: request) { _, response, error in
            if let status = (response as? HTTPURLResponse)?.statusCode {
                answer.set((200..<300).contains(status) ? .delivered(status: status) : .rejected(status: status))
            } else {
                let timedOut = (error as? URLError)?.code == .timedOut
                answer.set(.failed(timedOut ? "did not answer within \(Self.seconds(timeout))" : "could not be reached: \(error.map(Self.reason) ?? "no answer")"))
            }
        }
        task.resume()
        // URLSession's own time-out ends the task; this one only guards against it not firing.
        guard answer.wait(seconds: timeout + 2) else {
            task.cancel()
            return .failed("did not answer within \(Self.seconds(timeout))")
        }
        return answer.outcome ?? .failed("no answer")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    /// A network error in words, without Foundation's domain and code dump.
    static func reason(_ error: Error) -> String {
        guard let urlError = error as? URLError else { return "\(error.localizedDescription)" }
        switch urlError.code {
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .notConnectedToInternet, .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate: return "the TLS handshake failed"
        default: return urlError.localizedDescription
        }
    }
}

/// The completion's outcome, handed across threads.
private final class Answer: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var value: Webhook.Outcome?

    var outcome: Webhook.Outcome? { lock.withLock { value } }

    func set(_ outcome: Webhook.Outcome) {
        lock.withLock { value = outcome }
        done.signal()
    }

    func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}
