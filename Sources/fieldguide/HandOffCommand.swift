import ArgumentParser
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI

extension FieldGuideCommand {
    /// `fieldguide handoff DIR [FILE]`: a stage's hand-off checked as the next stage checks it,
    /// or records of one of its CSV files, a field a line.
    struct HandOffCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "handoff",
            abstract: "Check a stage's hand-off against its report, or print records of one of its files.",
            discussion: """
                DIR is a stage's output directory (output/stage/faa, or a stage's directory under \
                output/.pipeline). Without FILE: the report's stage and status, its sources, and \
                every file it lists with its size and SHA-256, each checked against the report \
                (exit 1 when the report is not ok or a file is missing or differs: what the next \
                stage refuses). With \
                FILE (one of those files, a CSV): its records from --record on, each field on a \
                line under the header's name.
                """)
        @Argument(help: "The stage's output directory.") var directory: String
        @Argument(help: "A CSV file of the hand-off to print records of.") var file: String?
        @Option(help: "The first record to print (1: the first after the header).") var record: Int = 1
        @Option(help: "How many records to print.") var count: Int = 1
        @Option(help: "Output format: text or json.") var format: OutputFormat = .text

        func validate() throws {
            try requirePath(directory, option: "<directory>")
            try requirePath(file, option: "<file>")
        }

        func run() throws {
            let inspection = try HandOffInspection(directory: directory)
            if let file {
                let (header, records) = try HandOffInspection.records(of: file, in: inspection, from: record, count: count)
                let rows = records.map { record in
                    Records.Record(line: record.line, fields: header.indices.map { i in
                        Records.Field(name: header[i], value: i < record.fields.count ? record.fields[i] : "")
                    })
                }
                try printOutput(Records(file: file, records: rows), format: format) { Self.text(file: file, rows) }
                return
            }
            let files = inspection.checkedFiles()
            try printOutput(Summary(inspection, files: files), format: format) { Self.text(inspection, files: files) }
            // What the next stage refuses: a report that is not `ok`, a file not as it records.
            guard inspection.report.status == .ok else {
                throw LocatedError(.badHandOff, file: directory + "/" + inspection.reportFile,
                                   message: "\(inspection.report.stage) ended \(inspection.report.status.rawValue): \(inspection.report.failure ?? "no reason given")")
            }
            if let wrong = files.first(where: { !$0.matches }) {
                let found = wrong.found.map { "\(formatCount($0.bytes)) bytes, SHA-256 \($0.sha256)" } ?? "no readable file"
                throw LocatedError(.badHandOff, file: directory + "/" + wrong.file,
                                   message: "expected \(formatCount(wrong.recorded.bytes)) bytes, SHA-256 \(wrong.recorded.sha256) as \(inspection.reportFile) records, found \(found)")
            }
        }

        struct Summary: Encodable {
            let directory, report, stage, status: String
            let failure: String?
            let sources: [StageReport.Source]
            let files: [HandOffInspection.File]
            init(_ inspection: HandOffInspection, files: [HandOffInspection.File]) {
                directory = inspection.directory; report = inspection.reportFile; stage = inspection.report.stage
                status = inspection.report.status.rawValue; failure = inspection.report.failure
                sources = inspection.report.sources; self.files = files
            }
        }

        struct Records: Encodable {
            struct Field: Encodable { let name, value: String }
            struct Record: Encodable { let line: Int; let fields: [Field] }
            let file: String
            let records: [Record]
        }

        static func text(_ inspection: HandOffInspection, files: [HandOffInspection.File]) -> String {
            let report = inspection.report
            var out = ["\(inspection.directory): the hand-off of \(report.stage) (\(inspection.reportFile): \(report.status.rawValue)"
                + (report.failure.map { ", \($0)" } ?? "") + ")"]
            let width = (report.sources.map(\.file) + files.map(\.file)).map(\.count).max() ?? 0
            for source in report.sources {
                let rows = source.rows
                out.append("  \(source.file.padding(toLength: width, withPad: " ", startingAt: 0))  source, \(formatCount(source.bytes)) bytes: "
                    + "\(formatCount(rows.read, "row")) read, \(formatCount(rows.kept)) kept, \(formatCount(rows.rejected)) rejected, \(formatCount(rows.warnings, "warning"))")
            }
            for file in files {
                let name = file.file.padding(toLength: width, withPad: " ", startingAt: 0)
                let recorded = "\(formatCount(file.recorded.bytes)) bytes, sha256 \(file.recorded.sha256.prefix(12))…"
                guard !file.matches else { out.append("  \(name)  \(recorded)  as recorded"); continue }
                let found = file.found.map { "\(formatCount($0.bytes)) bytes, sha256 \($0.sha256.prefix(12))…" } ?? "missing"
                out.append("  \(name)  \(recorded)  DIFFERS: found \(found)")
            }
            let wrong = files.filter { !$0.matches }.count
            if report.status != .ok {
                out.append("nothing to hand on: \(report.stage) ended \(report.status.rawValue)")
            } else {
                out.append(wrong == 0 ? "every file as the report records it"
                                      : "\(wrong) of \(files.count) files not as the report records them")
            }
            return out.joined(separator: "\n")
        }

        static func text(file: String, _ records: [Records.Record]) -> String {
            let width = records.first?.fields.map(\.name.count).max() ?? 0
            return records.map { record in
                // An empty value ends the line at its name: no trailing blanks.
                (["\(file):\(record.line)"] + record.fields.map { $0.value.isEmpty ? "  \($0.name)"
                    : "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.value)" })
                    .joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }
}
