import FieldGuideCSV
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The hand-off's readers use `CSVDialect.written` (libcsv's own space test on, its trimming
/// promised to remove nothing): on what `ingest-faa` writes from real files, that must read
/// every record as the plain RFC 4180 dialect does.
@Suite("FAA hand-off read as written CSV")
struct HandOffDialectTests {
    static func records(_ path: String, _ dialect: CSVDialect) throws -> [CSVRecord] {
        var records: [CSVRecord] = []
        try CSVReader.read(fileAt: path, dialect: dialect, chunkSize: 4_093) { records.append($0) }
        return records
    }

    static func expectSameRecords(in directory: String, files: [String]) throws {
        for file in files {
            let path = directory + "/" + file
            let written = try records(path, .written), plain = try records(path, .rfc4180)
            #expect(written.count > 1, "\(file)")
            #expect(written.map(\.fields) == plain.map(\.fields), "\(file)")
            #expect(written.map(\.line) == plain.map(\.line), "\(file)")
        }
    }

    @Test("real ACFTREF, ENGINE and MASTER from ../shared: every hand-off record the same either way")
    func realFiles() throws {
        guard let sources = try FAAFixtures.sharedDirectory() else { return }
        let (_, out) = try ingest(sources)
        try Self.expectSameRecords(in: out, files: ["models.csv", "engines.csv", "registrations.csv"])
    }

    @Test("input/faa, with DEREG and RESERVED and their spaces and quotes: every hand-off record the same either way")
    func fixtures() throws {
        let (_, out) = try ingest(FAAFixtures.inputDirectory)
        try Self.expectSameRecords(in: out, files: ["models.csv", "engines.csv", "registrations.csv", "deregistered.csv", "reserved.csv"])
    }
}
