import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA
import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// DEREG and RESERVED through `ingest-faa`: the same quirks, reports and failures as MASTER.
@Suite("FAA ingest: DEREG and RESERVED")
struct FAAStatusIngestTests {
    /// `input/faa` plus its DEREG and RESERVED (or `overriding` them).
    static func inputWithStatus(overriding overrides: [String: Data] = [:]) throws -> String {
        var files = [String: Data]()
        for name in ["DEREG.txt", "RESERVED.txt"] {
            files[name] = try overrides[name] ?? Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/" + name))
        }
        return try FAAFixtures.inputCopy(overriding: files.merging(overrides) { $1 })
    }

    static func rows(_ path: String, _ read: (String, (CSVRecord) throws -> Void) throws -> String) throws -> [[String]] {
        var rows: [[String]] = []
        _ = try read(path) { rows.append($0.fields) }  // the file's SHA-256, not needed here
        return rows
    }

    @Test("input/faa: DEREG and RESERVED read with their quirks (BOM, CRLF, trailing comma, padding, Latin-1)")
    func inputFiles() throws {
        let (report, out) = try ingest(FAAFixtures.inputDirectory)
        #expect(report.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt", "DEREG.txt", "RESERVED.txt"])
        #expect(report.sources.suffix(2).map(\.rows) == [.init(read: 6, kept: 6, rejected: 0, warnings: 1), .init(read: 5, kept: 5, rejected: 0, warnings: 0)])
        #expect(report.outputs.map(\.file).sorted() == ["deregistered.csv", "engines.csv", "models.csv", "registrations.csv", "reserved.csv"])
        #expect(report.counts[NormalizedFAA.latin1Count] == 1)
        let rejects = try readText(out + "/faa-rejects.csv")
        #expect(rejects.contains("warning,DEREG.txt,7,NAME,CÔTÉ AVIATION SERVICES,"), "\(rejects)")

        let dereg = try Self.rows(out + "/deregistered.csv", NormalizedFAAStatus.readDeregisteredRecords)
        typealias D = NormalizedFAAStatus.DeregisteredField
        #expect(dereg.map { $0[D.nNumber.rawValue] } == ["N1701", "N321RV", "N4477", "N777DR", "N777DR", "N88ZZ"])
        let exported = dereg[3]
        #expect(exported[D.cancelDate.rawValue] == "2019-04-30" && exported[D.exportCountry.rawValue] == "CANADA")
        #expect(exported[D.zip.rawValue] == "14202-1234" && exported[D.modeSHex.rawValue] == "A7D7D7" && exported[D.status.rawValue] == "V")
        #expect(dereg[4][D.otherNames.rawValue] == "DUNE SOARING ASSN TRUSTEE" && dereg[4][D.modeSHex.rawValue] == "")
        #expect(dereg[5][D.kitModel.rawValue] == "IBIS ONE KIT" && dereg[5][D.name.rawValue] == "CÔTÉ AVIATION SERVICES")

        let reserved = try Self.rows(out + "/reserved.csv", NormalizedFAAStatus.readReservedRecords)
        typealias R = NormalizedFAAStatus.ReservedField
        #expect(reserved.map { $0[R.nNumber.rawValue] } == ["N2FG", "N321RV", "N44GX", "N500XA", "N9999Z"])
        #expect(reserved[2][R.changeNNumber.rawValue] == "N12AB" && reserved[2][R.zip.rawValue] == "45402-1111")
        #expect(reserved[0][R.expirationDate.rawValue] == "" && reserved[1][R.purgeDate.rawValue] == "2027-07-01")
        #expect(reserved[3][R.reservationType.rawValue] == "FP" && reserved[3][R.street2.rawValue] == "SUITE 2")
    }

    @Test("a DEREG or RESERVED with the wrong header fails the stage at file:1, the outputs kept")
    func wrongHeader() throws {
        let out = try TestPaths.temporaryDirectory("faa-status-header").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out)
        let before = try ["deregistered.csv", "reserved.csv", "registrations.csv"].map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }

        let dereg = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/DEREG.txt"))
        let misspelled = Data(String(decoding: dereg, as: UTF8.self).replacingOccurrences(of: "CANCEL-DATE", with: "CANCEL DATE").utf8)
        let master = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt"))
        let cases: [(String, Data, String)] = [
            ("DEREG.txt", misspelled, "DEREG.txt:1: expected column 18 of DEREG.txt to be \"CANCEL-DATE\", found \"CANCEL DATE\""),
            ("RESERVED.txt", master, "RESERVED.txt:1: expected the RESERVED.txt header, found the header of MASTER.txt"),
            ("DEREG.txt", Data("\u{FEFF}N-NUMBER,REGISTRANT,\r\n".utf8), "DEREG.txt:1: expected column 2 of DEREG.txt to be \"SERIAL-NUMBER\", found \"REGISTRANT\""),
        ]
        for (name, data, message) in cases {
            let sources = try Self.inputWithStatus(overriding: [name: data])
            let error = #expect(throws: LocatedError.self) {
                try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out)
            }
            #expect(error?.kind == .wrongHeader && error?.description == message, "\(String(describing: error))")
            #expect(try StageReport.read(from: out + "/faa-ingest.json").status == .rejected)
            let after = try ["deregistered.csv", "reserved.csv", "registrations.csv"].map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }
            #expect(after == before)
        }
    }

    @Test("DEREG and RESERVED both wrong: DEREG's error is the stage's, though RESERVED is read beside it")
    func bothWrong() throws {
        let master = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt"))
        let sources = try Self.inputWithStatus(overriding: ["DEREG.txt": master, "RESERVED.txt": master])
        let out = try TestPaths.temporaryDirectory("faa-status-both").path
        let error = #expect(throws: LocatedError.self) {
            try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out)
        }
        #expect(error?.description == "DEREG.txt:1: expected the DEREG.txt header, found the header of MASTER.txt", "\(String(describing: error))")
        // Neither status file's output is left behind, nor a temporary file of RESERVED's.
        let left = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!left.contains { $0.contains("reserved") || $0.contains("deregistered") }, "\(left)")
    }

    @Test("rows: a bad date, a bad mark and a duplicate reservation rejected at file:line; past the share the stage fails")
    func rejectedRows() throws {
        var dereg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/DEREG.txt")))
        // Line 2's CANCEL-DATE (characters 240-247 of the record) becomes 20211315.
        let lineStart = dereg.firstIndex(of: 0x0A)! + 1
        for (i, byte) in "20211315".utf8.enumerated() { dereg[lineStart + 239 + i] = byte }
        var reserved = try FAAFixtures.lines("RESERVED.txt")
        reserved.append(reserved[3])                          // N44GX again (line 0 is the header)
        reserved.append("0BAD " + reserved[1].dropFirst(5))   // not an N-number
        let sources = try Self.inputWithStatus(overriding: ["DEREG.txt": Data(dereg), "RESERVED.txt": .faaFile(reserved)])
        let (report, out) = try ingest(sources, maxRejectShare: 0.5)
        #expect(report.sources.suffix(2).map(\.rows.rejected) == [1, 2])
        let rejects = try readText(out + "/faa-rejects.csv")
        #expect(rejects.contains("rejected,DEREG.txt,2,CANCEL-DATE,20211315,\"expected a calendar date YYYYMMDD, found \"\"20211315\"\"\"\n"), "\(rejects)")
        #expect(rejects.contains("rejected,RESERVED.txt,7,N-NUMBER,N44GX,duplicate N-number; first at line 4"))
        #expect(rejects.contains("rejected,RESERVED.txt,8,N-NUMBER,0BAD,expected an N-number mark"))
        // RESERVED is read beside DEREG; its rows still come after DEREG's in the report.
        let deregAt = try #require(rejects.range(of: "DEREG.txt,2,")), reservedAt = try #require(rejects.range(of: "RESERVED.txt,7,"))
        #expect(deregAt.lowerBound < reservedAt.lowerBound)

        let error = #expect(throws: LocatedError.self) { try ingest(sources) }
        #expect(error?.kind == .tooManyRejects && error?.description.hasPrefix("DEREG.txt: 1 of 6 rows rejected") == true)
    }

    @Test("optional: a download without DEREG and RESERVED builds, and a stale hand-off file is removed")
    func optional() throws {
        let out = try TestPaths.temporaryDirectory("faa-status-optional").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out)
        #expect(FileManager.default.fileExists(atPath: out + "/deregistered.csv"))
        let report = try FAAIngest().run(sources: try FAASources.locate(try FAAFixtures.inputCopy()), outputDirectory: out)
        #expect(report.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt"])
        #expect(!FileManager.default.fileExists(atPath: out + "/deregistered.csv"))
        #expect(!FileManager.default.fileExists(atPath: out + "/reserved.csv"))
    }

    @Test("a run without DEREG and RESERVED that is rejected keeps the earlier run's status files: stale files go only when a run commits")
    func staleKeptOnFailure() throws {
        let out = try TestPaths.temporaryDirectory("faa-status-stale-kept").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out)
        let deregistered = try Data(contentsOf: URL(fileURLWithPath: out + "/deregistered.csv"))
        let reserved = try Data(contentsOf: URL(fileURLWithPath: out + "/reserved.csv"))
        var master = try FAAFixtures.lines("MASTER.txt")
        for i in 1..<master.count { master[i] = "?????" + master[i].dropFirst(5) }   // every mark malformed
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(master)])
        let error = #expect(throws: LocatedError.self) { try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out) }
        #expect(error?.kind == .tooManyRejects)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/deregistered.csv")) == deregistered)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/reserved.csv")) == reserved)
    }

    @Test("ReleasableAircraft.zip holding DEREG and RESERVED reads them as the directory does")
    func zip() throws {
        let directory = try TestPaths.temporaryDirectory("faa-status-zip")
        let path = directory.appendingPathComponent("ReleasableAircraft.zip")
        let archive = try Archive(url: path, accessMode: .create)
        for name in ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt", "DEREG.txt", "RESERVED.txt"] {
            try archive.addEntry(with: name, fileURL: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/" + name), compressionMethod: .deflate)
        }
        let (fromZip, zipOut) = try ingest(path.path)
        let (fromDirectory, directoryOut) = try ingest(FAAFixtures.inputDirectory)
        #expect(fromZip.sources == fromDirectory.sources)
        for name in ["deregistered.csv", "reserved.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: zipOut + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: directoryOut + "/" + name)))
        }
    }
}
