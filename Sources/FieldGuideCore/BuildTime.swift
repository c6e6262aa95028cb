import Foundation

/// Reproducible build time: `SOURCE_DATE_EPOCH` (seconds since 1970) when set, else none.
///
/// Artifacts never carry the wall clock, so two builds of the same inputs are identical.
public enum BuildTime {
    public static func sourceDateEpoch(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int(text) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// The version written into every manifest.
public enum ToolInfo {
    public static let name = "fieldguide"
    public static let version = "0.1.0"
}
