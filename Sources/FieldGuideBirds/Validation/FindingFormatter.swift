import FieldGuideCore
import Foundation

/// Renders findings for people, for programs, and for GitHub Actions.
///
/// ```swift
/// let text = FindingFormatter.format(report, as: .github)
/// // ::error file=input/birds/bird_database.json,line=61,col=30,title=range::size_category 5 is outside 0–4
/// ```
public enum FindingFormatter {
    public enum Format: String, Sendable, CaseIterable {
        /// `file:line:col: error: message`, one per line.
        case human
        /// The whole report (files read, findings, counts) as deterministic JSON.
        case json
        /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message`.
        case github
    }

    public static func format(_ report: SeedValidationReport, as format: Format) throws -> String {
        switch format {
        case .human:
            return report.findings.map { $0.description + "\n" }.joined()
        case .json:
            return String(decoding: try JSON.encode(report), as: UTF8.self)
        case .github:
            return report.findings.map(github).joined()
        }
    }

    /// One GitHub Actions annotation line.
    public static func github(_ finding: Finding) -> String {
        let properties = "file=\(escapeProperty(finding.file)),line=\(finding.line),col=\(finding.column),title=\(escapeProperty(finding.rule.rawValue))"
        return "::\(finding.severity.rawValue) \(properties)::\(escapeData(finding.message))\n"
    }

    /// GitHub's escaping for a command's message.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for a command's property values (also `:` and `,`).
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
