import FieldGuideFAA
import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// `ReleasableAircraft.zip` in a fresh directory: input/faa's ACFTREF and ENGINE, and `master` as
/// MASTER.txt (at `masterPath`, deflated unless `method` says otherwise), and `extra` entries.
private func archive(master: Data, masterPath: String = "MASTER.txt", method: CompressionMethod = .deflate,
                     extra: [(path: String, data: Data)] = []) throws -> URL {
    let directory = try TestPaths.temporaryDirectory("faa-zip-bounds")
    let zip = try Archive(url: directory.appendingPathComponent("ReleasableAircraft.zip"), accessMode: .create)
    for name in ["ACFTREF.txt", "ENGINE.txt"] {
        try zip.addEntry(with: name, relativeTo: URL(fileURLWithPath: FAAFixtures.inputDirectory), compressionMethod: .deflate)
    }
    for (path, data) in [(masterPath, master)] + extra {
        try zip.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
    return directory.appendingPathComponent("ReleasableAircraft.zip")
}

/// Sets the uncompressed size every central directory header of `zip` declares to `size`.
private func declare(_ size: UInt32, in zip: URL) throws {
    var bytes = [UInt8](try Data(contentsOf: zip))
    var i = 0
    while i + 28 <= bytes.count {
        if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x01, bytes[i + 3] == 0x02 {
            withUnsafeBytes(of: size.littleEndian) { bytes.replaceSubrange((i + 24)..<(i + 28), with: $0) }
        }
        i += 1
    }
    try Data(bytes).write(to: zip)
}

@Suite("FAA ZIP bounds through ingest-faa", .serialized)
struct ZipBoundsTests {
    @Test("an entry declaring more than 512 MiB is refused before anything is extracted: exit 1, the entry named")
    func declaredTooLarge() throws {
        let zip = try archive(master: Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt")))
        try declare(768 << 20, in: zip)
        let out = zip.deletingLastPathComponent().appendingPathComponent("out").path
        let run = try TestPaths.run("ingest-faa", [zip.path, "--output", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("expected a ZIP entry of at most 512 MiB uncompressed, found one of 768 MiB; refused before extracting the rest"))
        #expect(!run.stderr.contains("rows read"))
    }

    @Test("a small ZIP of many spaces (a bomb under the entry bound) is stopped by the record bound at its line")
    func spacesBomb() throws {
        var master = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt")))
        let header = master.firstIndex(of: 0x0A)! + 1
        master.removeSubrange(header...)
        master += [UInt8](repeating: 0x20, count: 16 << 20)
        let zip = try archive(master: Data(master))
        let zipBytes = try Data(contentsOf: zip).count
        #expect(zipBytes < 100_000)
        let run = try TestPaths.run("ingest-faa", [zip.path, "--output", zip.deletingLastPathComponent().appendingPathComponent("out").path])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("MASTER.txt:2: expected a record of at most 64 KiB, found a longer one"), "\(run.stderr)")
    }

    /// ZIPFoundation hands the entry's bytes over and leaves the CRC-32 to the reader: a damaged
    /// download whose bytes still parse used to build with exit 0.
    @Test("an entry damaged in the archive (its bytes still parse) is refused by its CRC-32: exit 1, no hand-off")
    func damagedEntry() throws {
        let master = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt"))
        let zip = try archive(master: master, method: .none)
        var bytes = [UInt8](try Data(contentsOf: zip))
        let serial = Array("AMW-0001".utf8)
        let at = (0...(bytes.count - serial.count)).first { Array(bytes[$0..<($0 + serial.count)]) == serial }!
        bytes[at + 7] = UInt8(ascii: "7")   // AMW-0007: still a valid serial number
        try Data(bytes).write(to: zip)
        let out = zip.deletingLastPathComponent().appendingPathComponent("out").path

        let run = try TestPaths.run("ingest-faa", [zip.path, "--output", out])
        #expect(run.status == 1, "\(run.stderr)")
        let recorded = String(format: "0x%08X", CRC32(master))
        #expect(run.stderr.contains("ingest-faa: error: MASTER.txt: damaged in \(zip.path); download it again (expected the CRC-32 \(recorded) the archive records; found 0x"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/registrations.csv"))
    }

    @Test("two entries that could be MASTER.txt (a second download in a folder) are refused, both named: exit 2")
    func twoMasters() throws {
        let master = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt"))
        let zip = try archive(master: master, extra: [("2024-05/master.TXT", master)])
        let run = try TestPaths.run("ingest-faa", [zip.path, "--output", zip.deletingLastPathComponent().appendingPathComponent("out").path])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("two files could be"), "\(run.stderr)")
        #expect(run.stderr.contains("(expected one MASTER.txt; found 2: MASTER.txt, 2024-05/master.TXT)"), "\(run.stderr)")
        #expect(!run.stderr.contains("rows read"))
    }
}

/// CRC-32 (IEEE), as a ZIP archive records it.
private func CRC32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
