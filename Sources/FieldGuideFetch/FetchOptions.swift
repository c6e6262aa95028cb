import FieldGuideCore
import Foundation

/// What one fetch does: where from, how patiently, and within which bounds.
///
/// Every number has a documented range checked by ``validate()`` before the network is
/// touched; the defaults suit the FAA's `ReleasableAircraft.zip` (about 60 MB).
///
/// ```swift
/// var options = FetchOptions(url: "https://registry.faa.gov/database/ReleasableAircraft.zip",
///                            output: "downloads/faa")
/// options.retries = 2
/// try options.validate()
/// ```
public struct FetchOptions: Sendable, Equatable {
    /// The file's address (`http` or `https`).
    public var url: String
    /// Where `ReleasableAircraft.zip` and the stage report go.
    public var output: String
    /// Where the validators and the kept downloads live across runs (`output` when nil).
    public var state: String?
    /// Sent as `User-Agent` (the FAA answers 403 to some clients).
    public var userAgent = FetchOptions.defaultUserAgent
    /// Seconds without progress (connecting, waiting for the answer, between body bytes)
    /// before an attempt counts as timed out.
    public var timeout: Double = 60
    /// Seconds one attempt may take in all, body included.
    public var maxTime: Double = 1800
    /// Further attempts after a 5xx answer, a time-out or a failed connection (never after 4xx).
    public var retries = 3
    /// Seconds before the first retry; each later one waits twice as long, at most ``maxRetryDelay``.
    public var retryDelay: Double = 2
    /// The largest body accepted, in bytes.
    public var maxBytes = FetchOptions.defaultMaxBytes
    /// How many distinct downloads are kept in `STATE/downloads` (newest first).
    public var keep = 3

    public static let defaultUserAgent = "FieldGuide/\(ToolInfo.version) (fetch-faa; +https://registry.faa.gov/aircraftinquiry)"
    /// 1 GiB: about 16 times the real ZIP (about 60 MB in 2026). The body streams to disk, so
    /// the bound guards the disk (and the state's kept copies), not memory.
    public static let defaultMaxBytes = 1 << 30
    /// The largest `maxBytes` accepted: 8 GiB.
    public static let maxBytesCeiling = 8 << 30
    /// The most retries accepted: 10.
    public static let maxRetries = 10
    /// The most downloads kept: 20.
    public static let maxKeep = 20
    /// The longest wait between two attempts: 60 s.
    public static let maxRetryDelay: Double = 60
    /// The name the download takes in the output directory.
    public static let fileName = "ReleasableAircraft.zip"
    /// The stage report's name.
    public static let reportName = "fetch-faa.json"

    public init(url: String, output: String) {
        self.url = url
        self.output = output
    }

    /// The state directory in use.
    public var stateDirectory: String { state ?? output }

    /// The wait before retry `n` (1-based): `retryDelay × 2^(n-1)`, at most ``maxRetryDelay``.
    public func delay(beforeRetry n: Int) -> Double {
        min(Self.maxRetryDelay, retryDelay * Double(1 << min(n - 1, 16)))
    }

    /// Refuses a value outside its documented range, or an address that is not http(s).
    public func validate() throws(FetchError) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              parsed.host?.isEmpty == false else {
            throw .usage("expected an http:// or https:// address, found '\(url)'")
        }
        func check(_ ok: Bool, _ message: String) throws(FetchError) { if !ok { throw .usage(message) } }
        try check(timeout > 0 && timeout <= 3600, "--timeout must be above 0 and at most 3600 seconds, found \(timeout)")
        try check(maxTime > 0 && maxTime <= 86_400, "--max-time must be above 0 and at most 86400 seconds, found \(maxTime)")
        try check((0...Self.maxRetries).contains(retries), "--retries must be between 0 and \(Self.maxRetries), found \(retries)")
        try check(retryDelay >= 0 && retryDelay <= Self.maxRetryDelay,
                  "--retry-delay must be between 0 and \(Int(Self.maxRetryDelay)) seconds, found \(retryDelay)")
        try check((1...Self.maxBytesCeiling).contains(maxBytes), "--max-bytes must be between 1 and 8G, found \(maxBytes)")
        try check((1...Self.maxKeep).contains(keep), "--keep must be between 1 and \(Self.maxKeep), found \(keep)")
        try check(!userAgent.isEmpty && userAgent.utf8.count <= 512 && !userAgent.contains(where: { $0.isNewline }),
                  "--user-agent must be one line of at most 512 bytes")
    }

    /// `512M`, `1G`, `4096`, `64K` (binary multiples) as bytes; nil for anything else.
    public static func byteCount(_ text: String) -> Int? {
        let scales: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text.uppercased())
        var scale = 1
        if let last = digits.last, let s = scales[last] { (scale, digits) = (s, digits.dropLast()) }
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
            return nil
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }
}
