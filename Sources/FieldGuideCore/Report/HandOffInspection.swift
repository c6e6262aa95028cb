import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation

/// A stage's hand-off directory as an operator reads it (`fieldguide handoff`): its report, and
/// every file the report lists checked against the size and SHA-256 recorded there, as the
/// next stage checks the files it reads (``HandOff``); and any record of one of its CSV files,
/// printed under the header's names.
///
/// The directory's report is found, not named: of its `.json` files, the one that decodes as a
/// stage report (`faa-ingest.json`, `birds-ingest.json`, …).
///
/// ```swift
/// let inspection = try HandOffInspection(directory: "output/.pipeline/nightly/stages/ingest-faa")
/// inspection.report.stage                       // "ingest-faa"
/// inspection.checkedFiles().filter { !$0.matches }   // hashes every file: those not as recorded
/// let (header, records) = try HandOffInspection.records(of: "registrations.csv", in: inspection, from: 1, count: 2)
/// ```
package struct HandOffInspection: Sendable {
    /// One output the report lists, and what the directory holds under its name.
    package struct File: Sendable, Encodable {
        package let file: String
        package let recorded: StageReport.Output
        /// The file's size and SHA-256; nil when it is missing or cannot be read.
        package let found: StageReport.Output?
        package var matches: Bool { found?.bytes == recorded.bytes && found?.sha256 == recorded.sha256 }
    }

    package let directory: String
    /// The report's file name in the directory.
    package let reportFile: String
    package let report: StageReport

    /// Reads the directory's report (nothing is hashed yet). Throws a ``LocatedError`` when the
    /// directory cannot be read or holds no report, or more than one (usage or I/O); when its
    /// one JSON file does not decode as a report, that file's error (data rejected).
    package init(directory: String) throws(LocatedError) {
        self.directory = directory
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw LocatedError(directory, failed: error, .unreadable, doing: "cannot read the hand-off directory")
        }
        let candidates = names.filter { $0.hasSuffix(".json") }.sorted()
        var failures: [LocatedError] = []
        let reports = candidates.compactMap { name -> (String, StageReport)? in
            do throws(LocatedError) { return (name, try StageReport.read(from: directory + "/" + name)) } catch {
                failures.append(error)
                return nil
            }
        }
        // The directory's one JSON file, not a report: what is wrong with it says more than "none".
        if reports.isEmpty, candidates.count == 1, let failure = failures.first { throw failure }
        guard reports.count == 1, let (file, report) = reports.first else {
            throw LocatedError(.missingFile, file: directory, expected: "one stage report (a .json file a stage wrote)",
                               found: reports.isEmpty ? "none" : reports.map(\.0).joined(separator: ", "),
                               message: "not a stage's hand-off directory")
        }
        reportFile = file
        self.report = report
    }

    /// The report's outputs in file-name order, each hashed and set beside what the report
    /// records. Only the check hashes: printing a record does not read the other files.
    package func checkedFiles() -> [File] {
        report.outputs.sorted { $0.file < $1.file }.map { output in
            let found = try? FileDigest.sha256(ofFileAt: directory + "/" + output.file)
            return File(file: output.file, recorded: output,
                        found: found.map { StageReport.Output(file: output.file, bytes: $0.bytes, sha256: $0.digest) })
        }
    }

    /// The header of hand-off CSV `file` and its data records `first ..< first + count` (1 is the
    /// first after the header; fewer at the file's end, none a usage error), each with the line it starts on. Reads
    /// no further than the last record asked for. `file` must be one of the report's outputs, a CSV.
    package static func records(of file: String, in inspection: HandOffInspection, from first: Int, count: Int)
        throws(LocatedError) -> (header: [String], records: [(line: Int, fields: [String])]) {
        guard inspection.report.output(named: file) != nil else {
            let names = inspection.report.outputs.map(\.file).sorted().joined(separator: ", ")
            throw LocatedError(.usage, file: inspection.directory + "/" + inspection.reportFile, expected: "one of its outputs",
                               found: file, message: "\(file) is not among the files of this hand-off (\(names))")
        }
        guard file.hasSuffix(".csv") else {
            throw LocatedError(.usage, file: inspection.directory + "/" + file, expected: "a CSV file of the hand-off",
                               found: file, message: "only a hand-off's CSV files have records to print")
        }
        guard first >= 1, count >= 1 else {
            throw LocatedError(.usage, file: "", expected: "a record of 1 or more and a count of 1 or more",
                               found: "record \(first), count \(count)", message: "no record to print")
        }
        var header: [String] = []
        var records: [(line: Int, fields: [String])] = []
        /// Ends the read once the last record asked for is in.
        struct Enough: Error {}
        do {
            try CSVReader.read(fileAt: inspection.directory + "/" + file, dialect: .rfc4180, displayName: file) { record in
                if record.index == 0 { header = record.fields; return }
                guard record.index >= first else { return }
                records.append((record.line, record.fields))
                if records.count == count { throw Enough() }
            }
        } catch is Enough {
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(.unreadable, file: file, message: "\(error)")
        }
        guard !records.isEmpty else {
            throw LocatedError(.usage, file: file, expected: "record \(first) or an earlier one",
                               found: "the file's end", message: "fewer than \(first) records after the header")
        }
        return (header, records)
    }
}
