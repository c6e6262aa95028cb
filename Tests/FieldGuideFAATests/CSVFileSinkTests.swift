import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The hand-off's CSV outputs are written and hashed on queues of their own; what lands on
/// disk, and the hash returned, must be exactly the bytes given, in order.
@Suite("CSV file sink")
struct CSVFileSinkTests {
    func directory(_ name: String) throws -> String {
        try TestPaths.temporaryDirectory(name).path
    }

    @Test("records, encoded stretches and megabyte arrays land in order; the hash is the file's")
    func order() throws {
        let path = try directory("sink-order") + "/out.csv"
        let sink = try CSVFileSink(path: path, header: ["a", "b"])
        var expected = CSVWriter()
        expected.write(["a", "b"])
        // A stretch of another writer's records, big enough to cross the sink's flushes.
        var other = CSVWriter()
        for i in 0..<60_000 { other.write(["N\(i)", "value, \"quoted\" \(i)"]) }
        let encoded = other.bytes
        for round in 0..<3 {
            for i in 0..<20_000 {
                try sink.write(["row \(round).\(i)", "x"])
                expected.write(["row \(round).\(i)", "x"])
            }
            let range = (encoded.count / 3 * round)..<(encoded.count / 3 * (round + 1))
            try sink.write(encoded: encoded, range: range)
            encoded.withUnsafeBytes { expected.append(encoded: UnsafeRawBufferPointer(rebasing: $0[range])) }
            try sink.write(encoded: encoded, range: range.lowerBound..<range.lowerBound)  // empty: nothing
        }
        let sha256 = try sink.commit()
        let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(onDisk.count > 2 << 20)
        let same = onDisk == expected.bytes  // one Bool: a failure would print megabytes
        #expect(same, "the file holds other bytes than were written")
        #expect(sha256 == (try FileDigest.sha256(ofFileAt: path).digest))
    }

    @Test("a sink dropped before commit leaves the old file and no temporary file, however much it queued")
    func dropped() throws {
        let dir = try directory("sink-dropped")
        let path = dir + "/out.csv"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let sink = try CSVFileSink(path: path, header: ["a"])
            let big = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
            for _ in 0..<4 { try sink.write(encoded: big, range: 0..<big.count) }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
    }
}
