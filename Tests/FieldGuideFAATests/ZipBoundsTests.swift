import FieldGuideFAA
import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// `ReleasableAircraft.zip` in a fresh directory: input/faa's ACFTREF and ENGINE, and `master` as MASTER.txt.
private func archive(master: Data) throws -> URL {
    let directory = try TestPaths.temporaryDirectory("faa-zip-bounds")
    let zip = try Archive(url: directory.appendingPathComponent("ReleasableAircraft.zip"), accessMode: .create)
    for name in ["ACFTREF.txt", "ENGINE.txt"] {
        try zip.addEntry(with: name, relativeTo: URL(fileURLWithPath: FAAFixtures.inputDirectory), compressionMethod: .deflate)
    }
    try zip.addEntry(with: "MASTER.txt", type: .file, uncompressedSize: Int64(master.count), compressionMethod: .deflate) { position, size in
        master.subdata(in: Int(position)..<Int(position) + size)
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
}
