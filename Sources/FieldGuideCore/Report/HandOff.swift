import FieldGuideDiagnostics
import Foundation

/// A stage's hand-off directory, checked once before the next stage reads it: the report is
/// there, decodes, comes from the expected stage and says `ok`; every file the reader needs is
/// listed; and the SHA-256 of every file it reads matches the report's, each file hashed once.
///
/// Only the files the reader reads are hashed: one it leaves alone cannot change its output.
/// (Every listed output was, until the eleventh session: `emit-aircraft-index`, which reads
/// the 6 MB of models and engines, hashed DEREG's and RESERVED's 95 MB too, a tenth of its time.)
///
/// A large file the reader hashes in the pass that parses it is named `streamed`: it is not
/// hashed on opening, and the reader hands its hash to ``verify(_:sha256:)`` afterwards.
/// Every refusal is a ``LocatedError`` of kind `badHandOff` at the file concerned.
///
/// ```swift
/// let handOff = try HandOff(directory: "output/.pipeline/nightly/stages/ingest-faa", report: "faa-ingest.json",
///                           producer: "ingest-faa", files: ["models.csv", "registrations.csv"],
///                           streamed: ["registrations.csv"])
/// let models = handOff.path("models.csv")                     // checked already
/// try handOff.verify("registrations.csv", sha256: digest)     // hashed while parsed
/// ```
package struct HandOff: Sendable {
    package let directory: String
    /// The producing stage's report (status `ok`).
    package let report: StageReport
    package let reportPath: String

    /// Opens the hand-off in `directory`, whose report is `report` written by `producer`.
    /// `files` are the outputs the reader needs (each must be listed), hashed and checked here in
    /// file-name order (the first mismatch is refused); `streamed` ones, which the reader may
    /// also read, are left for ``verify(_:sha256:)``.
    package init(directory: String, report file: String, producer: String, files: [String],
                streamed: Set<String> = []) throws(LocatedError) {
        self.directory = directory
        reportPath = directory + "/" + file
        // A directory that is not there is a mistaken path (exit 2), not a stage that left no report.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LocatedError(.missingFile, file: directory, expected: "the hand-off directory of \(producer)",
                               found: FileManager.default.fileExists(atPath: directory) ? "a file" : "nothing there",
                               message: "not a hand-off directory")
        }
        guard FileManager.default.fileExists(atPath: reportPath) else {
            throw LocatedError(.badHandOff, file: reportPath, message: "expected the ingest report of \(producer), found none (run \(producer) first)")
        }
        let report: StageReport
        do { report = try StageReport.read(from: reportPath, as: "the ingest report") } catch {
            throw error.reclassified(as: .badHandOff)
        }
        guard report.stage == producer else {
            throw LocatedError(.badHandOff, file: reportPath, message: "expected the ingest report of \(producer), found one of \(report.stage)")
        }
        guard report.status == .ok else {
            let outcome = report.status == .failed ? "failed" : "rejected its input"
            throw LocatedError(.badHandOff, file: reportPath,
                               message: "ingest \(outcome), nothing to emit: \(report.failure ?? "no reason given")")
        }
        self.report = report
        for name in files where report.output(named: name) == nil {
            throw LocatedError(.badHandOff, file: reportPath,
                               message: "expected \(name) among the outputs of \(producer), found \(report.outputs.map(\.file).sorted().joined(separator: ", "))")
        }
        for file in Set(files).subtracting(streamed).sorted() { try check(file) }
    }

    /// The path of a file in the hand-off.
    package func path(_ file: String) -> String { directory + "/" + file }

    /// The SHA-256 the report gives for `file`.
    package func expectedSHA256(_ file: String) -> String? { report.output(named: file)?.sha256 }

    /// Refuses `file` when `found` (its SHA-256, taken while it was read) is not the report's.
    package func verify(_ file: String, sha256 found: String) throws(LocatedError) {
        guard let expected = expectedSHA256(file), found != expected else { return }
        throw LocatedError(.badHandOff, file: path(file), message: "expected SHA-256 \(expected) from the ingest report, found \(found)")
    }

    /// The rows the report says the producer kept from its sources whose names start with
    /// `prefix` (case-insensitive), as a hint for sizing tables before `file` is read: never
    /// negative, and never more than `file` on disk can hold at `minimumRowBytes` a row (a row
    /// of `n` fields is at least `n` bytes: its commas and line end). The report is not trusted
    /// for sizes: a crafted count sizes nothing past the file, and a sum past `Int.max` stops there.
    ///
    /// ```swift
    /// let rows = handOff.expectedRows(fromSources: "MASTER", in: "registrations.csv", minimumRowBytes: 34)
    /// ```
    package func expectedRows(fromSources prefix: String, in file: String, minimumRowBytes: Int) -> Int {
        var kept = 0
        for source in report.sources where source.file.uppercased().hasPrefix(prefix.uppercased()) {
            let (sum, overflow) = kept.addingReportingOverflow(max(0, source.rows.kept))
            kept = overflow ? .max : sum
        }
        var info = stat()
        let size = stat(path(file), &info) == 0 ? Int(info.st_size) : 0
        return min(kept, size / max(1, minimumRowBytes))
    }

    /// Hashes `file` and refuses it when it is not the report's (`missing` when it cannot be read).
    package func check(_ file: String) throws(LocatedError) {
        try verify(file, sha256: (try? FileDigest.sha256(ofFileAt: path(file)).digest) ?? "missing")
    }
}
