import Foundation
import Testing
import FieldGuideCore
import FieldGuideCSV
import TestSupport

/// `RejectSpool`: the rejects report written as found, spooled past its 1 MiB buffer. Each test
/// writes well past the buffer (tens of thousands of rows), so the spool file, its roll-back and
/// its read-back are what is tested, against `RejectsReport`, which holds every row.
@Suite("Rejects spool")
struct RejectSpoolTests {
    /// Issue `i`: every third rejected, every fifth a Latin-1 warning, values of varying length.
    static func issue(_ i: Int) -> RowIssue {
        if i % 5 == 0 { return RowIssue(.warning, file: "MASTER.txt", line: i + 2, field: "NAME", value: "JOS\u{C9}", reason: FileText.latin1Reason) }
        return RowIssue(i % 3 == 0 ? .rejected : .warning, file: "MASTER.txt", line: i + 2, field: "YEAR MFR",
                        value: String(repeating: "9", count: i % 40), reason: "expected a zero-padded number, found \"\(i)\"")
    }

    static func expected(_ issues: [RowIssue]) -> [UInt8] {
        var report = RejectsReport()
        for issue in issues { report.append(issue) }
        return report.csvBytes()
    }

    static func counts(_ issues: [RowIssue]) -> RejectSpool.Counts {
        var counts = RejectSpool.Counts()
        for issue in issues { counts.add(issue) }
        return counts
    }

    static func committed(_ spool: RejectSpool, in directory: String) throws -> [UInt8] {
        let written = try spool.prepare(directory + "/rejects.csv")
        try written.writer.commit()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/rejects.csv")))
        #expect(written.bytes == bytes.count && written.sha256 == FileDigest.sha256(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["rejects.csv"], "no scratch file left")
        return bytes
    }

    @Test("30,000 rows, 2.5 MB: the bytes RejectsReport writes, counted by kind, no scratch file left")
    func pastTheBuffer() throws {
        let directory = try TestPaths.temporaryDirectory("reject-spool").path
        let issues = (0..<30_000).map(Self.issue)
        let spool = RejectSpool(directory: directory, name: "rejects.csv")
        for issue in issues { try spool.append(issue) }
        #expect(spool.counts == Self.counts(issues))
        #expect(spool.counts.latin1 == 6_000 && spool.counts.rejected == 8_000)
        let bytes = try Self.committed(spool, in: directory)
        #expect(bytes.count > 2 << 20)
        #expect(bytes == Self.expected(issues))
    }

    @Test("a clean report is its header alone, never spooled")
    func empty() throws {
        let directory = try TestPaths.temporaryDirectory("reject-spool-empty").path
        let bytes = try Self.committed(RejectSpool(directory: directory, name: "rejects.csv"), in: directory)
        #expect(String(decoding: bytes, as: UTF8.self) == "severity,file,line,field,value,reason\n")
    }

    @Test("rolled back to a mark in the spooled bytes or in the buffer: the rows after it are gone, with their counts")
    func rollBack() throws {
        let directory = try TestPaths.temporaryDirectory("reject-spool-rollback").path
        let issues = (0..<40_000).map(Self.issue)
        let spool = RejectSpool(directory: directory, name: "rejects.csv")
        for issue in issues[0..<100] { try spool.append(issue) }
        let early = spool.mark()
        for issue in issues[100..<20_000] { try spool.append(issue) }   // past the buffer: spooled
        try spool.rollBack(to: early)
        #expect(spool.counts == Self.counts(Array(issues[0..<100])))
        for issue in issues[20_000..<30_000] { try spool.append(issue) }
        let late = spool.mark()
        for issue in issues[30_000..<30_010] { try spool.append(issue) }   // in the buffer
        try spool.rollBack(to: late)
        try spool.append(issues[39_999])
        let kept = Array(issues[0..<100] + issues[20_000..<30_000]) + [issues[39_999]]
        #expect(spool.counts == Self.counts(kept))
        #expect(try Self.committed(spool, in: directory) == Self.expected(kept))
    }

    @Test("stretches of another report appended in order, from its spooled bytes and its buffer: the rows chosen, their counts")
    func stretches() throws {
        let directory = try TestPaths.temporaryDirectory("reject-spool-stretches").path
        let issues = (0..<30_000).map(Self.issue)
        let part = RejectSpool(directory: directory, name: "part", header: false)
        var ends: [Int] = []
        for issue in issues {
            try part.append(issue)
            ends.append(part.size)
        }
        // Every row but each seventh, in stretches that end where a dropped row starts.
        let report = RejectSpool(directory: directory, name: "rejects.csv")
        var start = 0, counts = RejectSpool.Counts(), kept: [RowIssue] = []
        for (i, issue) in issues.enumerated() {
            let rowStart = i == 0 ? 0 : ends[i - 1]
            if i % 7 == 6 {
                try report.append(start..<rowStart, of: part, counts: counts)
                (start, counts) = (ends[i], RejectSpool.Counts())
            } else {
                counts.add(issue)
                kept.append(issue)
            }
        }
        try report.append(start..<ends[issues.count - 1], of: part, counts: counts)
        #expect(report.counts == Self.counts(kept))
        let whole = RejectSpool(directory: directory, name: "whole")
        try whole.append(contentsOf: part)
        #expect(whole.counts == Self.counts(issues))
        let wholeBytes = try whole.prepare(directory + "/whole.csv")
        try wholeBytes.writer.commit()
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/whole.csv"))) == Self.expected(issues))
        #expect(wholeBytes.bytes > 2 << 20)
        try FileManager.default.removeItem(atPath: directory + "/whole.csv")
        #expect(try Self.committed(report, in: directory) == Self.expected(kept))
    }
}
