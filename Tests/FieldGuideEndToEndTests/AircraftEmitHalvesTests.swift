import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
@testable import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// `registrations.csv` read in two halves on two threads gives what one pass gives: the same
/// artifact wherever the cut falls, and the same errors, with their real lines.
@Suite("Aircraft emit: registrations in two halves")
struct AircraftEmitHalvesTests {
    /// The hand-off of `sources`, in a fresh directory.
    func handOff(_ sources: String) throws -> String {
        let out = try TestPaths.temporaryDirectory("halves").path
        _ = try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out + "/stage")
        return out + "/stage"
    }

    /// The artifact's bytes and counts, with `registrations.csv` cut at the first line boundary
    /// at or past `offset` (`nil`: the middle; `.max`: no cut, one pass).
    func emit(_ handOff: String, cut offset: Int?) throws -> (bytes: [UInt8], counts: [String: Int]) {
        let out = try TestPaths.temporaryDirectory("halves-out").path
        let result = try AircraftEmit.run(handOff: handOff, outputDirectory: out, environment: [:], cuttingAtOrAfter: offset)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: result.artifactPath))), result.entry.counts)
    }

    /// The error the emit stops with.
    func emitError(_ handOff: String, cut offset: Int?) -> LocatedError? {
        #expect(throws: LocatedError.self, "cut at or past byte \(String(describing: offset))") { _ = try emit(handOff, cut: offset) }
    }

    /// The offset of every line feed of `registrations.csv` but the last: a cut after each line.
    func lineEnds(_ handOff: String) throws -> [Int] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: handOff + "/" + NormalizedFAA.registrationsFile))
        return bytes.indices.filter { bytes[$0] == 0x0A }.dropLast()
    }

    /// Changes the lines of a hand-off file; the report gets its new hash unless `keepingHash`.
    func rewrite(_ handOff: String, _ file: String, keepingHash: Bool = false, _ change: (inout [String]) -> Void) throws {
        let path = handOff + "/" + file
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        change(&lines)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        guard !keepingHash else { return }
        let reportPath = handOff + "/" + NormalizedFAA.reportFile
        var report = try StageReport.read(from: reportPath)
        let digest = try FileDigest.sha256(ofFileAt: path)
        report.outputs = report.outputs.map { $0.file == file ? .init(file: file, bytes: digest.bytes, sha256: digest.digest) : $0 }
        try report.write(to: reportPath)
    }

    /// Every way of reading the hand-off: one pass, the middle cut, and a cut after each line.
    func everyCut(_ handOff: String) throws -> [Int?] {
        [.max, nil] + (try lineEnds(handOff))
    }

    @Test("the fixtures: the one-pass artifact and counts, with the cut after any line")
    func fixtures() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        let onePass = try emit(stage, cut: .max)
        #expect(onePass.counts["registrations"] == 20)
        for offset in try everyCut(stage) {
            let halves = try emit(stage, cut: offset)
            #expect(halves.bytes == onePass.bytes, "cut at or past byte \(String(describing: offset))")
            #expect(halves.counts == onePass.counts)
        }
    }

    @Test("real FAA files: the one-pass artifact, with the cut after the header, in the middle, before the last line")
    func realFiles() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        let stage = try handOff(directory)
        let onePass = try emit(stage, cut: .max)
        let ends = try lineEnds(stage)
        for offset in [nil, ends.first, ends[ends.count / 3], ends.last] {
            #expect(try emit(stage, cut: offset).bytes == onePass.bytes, "cut at or past byte \(String(describing: offset))")
        }
    }

    @Test("a bad row in the second half is reported at its line, however the file is read")
    func secondHalfError() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        try rewrite(stage, NormalizedFAA.registrationsFile) { lines in
            lines[19] = lines[19].replacingOccurrences(of: ",2018-01-01,", with: ",2018-01-0X,")  // line 20
        }
        for offset in try everyCut(stage) {
            let error = emitError(stage, cut: offset)
            #expect(error?.file == NormalizedFAA.registrationsFile && error?.line == 20, "cut at or past byte \(String(describing: offset))")
            #expect(error?.message.hasPrefix("expected a date YYYY-MM-DD in column lastActionDate") == true)
        }
    }

    @Test("a row short of a field in the second half is reported at its line")
    func secondHalfWidth() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        try rewrite(stage, NormalizedFAA.registrationsFile) { lines in
            lines[20] = String(lines[20][..<lines[20].lastIndex(of: ",")!])  // line 21
        }
        for offset in [nil, try lineEnds(stage)[17], .max] {
            let error = emitError(stage, cut: offset)
            #expect(error?.line == 21 && error?.message == "expected 31 fields, found 30")
        }
    }

    @Test("with a bad row in each half, the first one in the file is reported")
    func firstErrorWins() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        try rewrite(stage, NormalizedFAA.registrationsFile) { lines in
            lines[2] = lines[2].replacingOccurrences(of: ",2001,", with: ",20X1,")  // line 3: year
            lines[19] = lines[19].replacingOccurrences(of: ",2018-01-01,", with: ",2018-01-0X,")  // line 20
        }
        for offset in try everyCut(stage) {
            let error = emitError(stage, cut: offset)
            #expect(error?.line == 3 && error?.message.hasPrefix("expected a number in column yearManufactured") == true)
        }
    }

    @Test("a registrations file changed after ingest is a mismatch, even when its second half does not parse")
    func changedFile() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        try rewrite(stage, NormalizedFAA.registrationsFile, keepingHash: true) { lines in
            lines[19] = lines[19].replacingOccurrences(of: ",2018-01-01,", with: ",2018-01-0X,")
        }
        for offset: Int? in [nil, .max] {
            let error = emitError(stage, cut: offset)
            #expect(error?.file.hasSuffix("/" + NormalizedFAA.registrationsFile) == true)
            #expect(error?.message.hasPrefix("expected SHA-256") == true)
        }
    }

    @Test("an error in the reference files comes before one in the registrations")
    func referenceErrorFirst() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        try rewrite(stage, NormalizedFAA.modelsFile) { lines in
            lines[5] = String(lines[5][..<lines[5].lastIndex(of: ",")!])  // line 6
        }
        try rewrite(stage, NormalizedFAA.registrationsFile) { lines in
            lines[19] = lines[19].replacingOccurrences(of: ",2018-01-01,", with: ",2018-01-0X,")
        }
        for offset: Int? in [nil, .max] {
            let error = emitError(stage, cut: offset)
            #expect(error?.file == NormalizedFAA.modelsFile && error?.line == 6)
        }
    }

    @Test("a number at the 32-bit bound is read, one past it refused: registrations and DEREG", arguments: [
        (NormalizedFAA.registrationsFile, NormalizedFAA.RegistrationField.yearManufactured.rawValue, UInt64(UInt32.max)),
        (NormalizedFAAStatus.deregisteredFile, NormalizedFAAStatus.DeregisteredField.yearManufactured.rawValue, UInt64(UInt32.max - 1)),
    ])
    func numberBound(file: String, column: Int, largest: UInt64) throws {
        for (value, refused) in [(largest, false), (largest + 1, true), (largest * 10, true)] {
            let stage = try handOff(FAAFixtures.inputDirectory)
            try rewrite(stage, file) { lines in
                var fields = lines[1].components(separatedBy: ",")  // line 2, the first row
                fields[column] = String(value)
                lines[1] = fields.joined(separator: ",")
            }
            if refused {
                let error = emitError(stage, cut: .max)
                #expect(error?.file.hasSuffix(file) == true && error?.line == 2, "\(value)")
                #expect(error?.message == "expected a number in column yearManufactured, found \(value)", "\(value)")
            } else {
                #expect(throws: Never.self, "\(value)") { _ = try emit(stage, cut: .max) }
            }
        }
    }
}
