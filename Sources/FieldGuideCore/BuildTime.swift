import Foundation

/// Reproducible build time: `SOURCE_DATE_EPOCH` (seconds since 1970) when set, else none.
///
/// Artifacts never carry the wall clock, so two builds of the same inputs are identical.
public enum BuildTime {
    public static func sourceDateEpoch(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text) else { return nil }
        return UTCTimestamp.iso8601(secondsSince1970: seconds)
    }
}

/// The version written into every manifest.
public enum ToolInfo {
    public static let name = "fieldguide"
    public static let version = "0.1.0"
}
