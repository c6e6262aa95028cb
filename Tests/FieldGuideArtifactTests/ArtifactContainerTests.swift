import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

@Suite("Artifact container")
struct ArtifactContainerTests {
    enum Column: Int, RowColumn {
        case name, count
        var kind: ColumnKind { self == .name ? .string : .u16 }
    }

    /// A small two-section artifact: a string pool and a row table sorted by name.
    func sampleBytes() -> [UInt8] {
        var pool = StringPoolBuilder()
        var table = RowTableBuilder<Column>()
        for (name, count) in [("wren", 3), ("heron", 12), ("Émeu", 1), ("coot", 40)] {
            var row = table.newRow()
            row[.name] = pool.intern(name)
            row[.count] = UInt32(count)
            table.append(row)
        }
        let (poolBytes, remap) = pool.finish()
        table.remapStrings(remap)
        table.sort(by: [.name])
        var builder = ArtifactBuilder(kind: FourCC("TEST"))
        builder.addSection(FourCC("STRS"), rows: remap.count, bytes: poolBytes)
        builder.addSection(FourCC("ROWS"), rows: table.count, bytes: table.serialize())
        return try! builder.serialize()  // in memory (no spool): nothing to fail
    }

    func write(_ bytes: [UInt8]) throws -> String {
        let path = try TestPaths.temporaryDirectory("artifact").appendingPathComponent("t.fgb").path
        try AtomicFile.write(bytes, to: path)
        return path
    }

    @Test("CRC-32 matches the IEEE check value, in one call and in pieces")
    func crcCheckValue() {
        let bytes = Array("123456789".utf8)
        #expect(CRC32.checksum(bytes) == 0xCBF4_3926)
        let first = CRC32.checksum(Array(bytes[0..<4]))
        #expect(CRC32.checksum(Array(bytes[4...]), seed: first) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8](repeating: 0x61, count: 1000)) == CRC32.checksum(Array(String(repeating: "a", count: 1000).utf8)))
        // The sliced loop against the bit-by-bit definition, at every length and alignment up to 64
        // bytes and on a larger buffer, continued in two pieces.
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc = ~UInt32(0)
            for b in bytes { crc ^= UInt32(b); for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 } }
            return ~crc
        }
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in 0..<8 { for length in 0...64 {
            let slice = random[start..<start + length]
            #expect(slice.withUnsafeBytes { CRC32.checksum($0) } == bitwise(slice), "start \(start), length \(length)")
        } }
        let head = CRC32.checksum(Array(random[..<1000]))
        #expect(CRC32.checksum(Array(random[1000...]), seed: head) == bitwise(random[...]))
    }

    @Test("CRC-32 by folding (64 bytes and more, where the processor can) equals the table loop and the definition")
    func crcFolding() {
        func bitwise(_ bytes: ArraySlice<UInt8>, seed: UInt32) -> UInt32 {
            var crc = ~seed
            for b in bytes { crc ^= UInt32(b); for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 } }
            return ~crc
        }
        var generator = SystemRandomNumberGenerator()
        let random = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Around each block boundary of the fold (16, 64) and past several of its 64-byte steps,
        // at every alignment of a 16-byte block, from a random seed.
        for start in 0..<16 { for length in stride(from: 56, through: 300, by: 3) {
            let slice = random[start..<start + length], seed = UInt32.random(in: 0...UInt32.max, using: &generator)
            #expect(slice.withUnsafeBytes { CRC32.checksum($0, seed: seed) } == bitwise(slice, seed: seed), "start \(start), length \(length)")
        } }
        // A megabyte, against the table loop alone (what processors without the fold run).
        let seed = UInt32.random(in: 0...UInt32.max, using: &generator)
        random.withUnsafeBytes { bytes in
            #expect(CRC32.checksum(bytes, seed: seed) == ~CRC32.register(bytes, from: ~seed))
            #expect(CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[5...]), seed: seed)
                    == ~CRC32.register(UnsafeRawBufferPointer(rebasing: bytes[5...]), from: ~seed))
        }
        print("CRC-32 folding on this processor: \(CRC32.folds ? "yes" : "no, the table loop ran")")
    }

    @Test("round trip: sections, sorted string ids, binary search by key")
    func roundTrip() throws {
        let file = try ArtifactFile(path: try write(sampleBytes()), expectedKind: FourCC("TEST"))
        #expect(file.kind.description == "TEST")
        #expect(file.sections.map(\.tag) == ["ROWS", "STRS"])
        let pool = try StringPool(file.section(FourCC("STRS")), path: file.path)
        #expect(pool.count == 5)
        #expect(pool.string(0) == "")
        // Sorted byte-wise: "coot" < "heron" < "wren" < "Émeu" (0xC3 sorts after ASCII).
        #expect((1..<5).map { pool.string(UInt32($0)) } == ["coot", "heron", "wren", "Émeu"])
        #expect(pool.id(of: "heron") == 2)
        #expect(pool.id(of: "gull") == nil)
        let table = try RowTable(file.section(FourCC("ROWS")), layout: RowLayout<Column>(), tag: FourCC("ROWS"), path: file.path)
        #expect(table.count == 4)
        let row = try #require(table.find(.name, pool.id(of: "coot")!))
        #expect(table.value(row, .count) == 40)
        #expect(table.find(.name, 99) == nil)
    }

    @Test("a malformed string pool's error names its own section, STRS or another")
    func poolErrorNamesTag() throws {
        let short: [UInt8] = [1, 0, 0, 0]
        let past: [UInt8] = [9, 0, 0, 0, 0, 0, 0, 0]
        for (bytes, reason) in [(short, "shorter than its count"), (past, "offset table runs past the section")] {
            for (tag, expected) in [(nil, "STRS"), (FourCC("XSTR"), "XSTR")] as [(FourCC?, String)] {
                let error = bytes.withUnsafeBytes { section -> ArtifactError? in
                    do throws(ArtifactError) {
                        if let tag { _ = try StringPool(section, path: "a.fgb", tag: tag) } else { _ = try StringPool(section, path: "a.fgb") }
                        return nil
                    } catch { return error }
                }
                guard case .malformedSection(let path, let section, let why)? = error else {
                    Issue.record("\(expected): expected malformedSection, got \(String(describing: error))")
                    continue
                }
                #expect(path == "a.fgb" && section == expected && why.contains(reason))
            }
        }
    }

    @Test("identical inputs give byte-identical files")
    func deterministic() {
        #expect(sampleBytes() == sampleBytes())
    }

    @Test("a wrong magic is a typed error")
    func badMagic() throws {
        var bytes = sampleBytes()
        bytes[0] = UInt8(ascii: "X")
        let path = try write(bytes)
        #expect(throws: ArtifactError.badMagic(path: path)) { try ArtifactFile(path: path) }
    }

    @Test("a text file is not an artifact")
    func textFile() throws {
        let path = try write(Array("CODE,MFR,MODEL\r\n".utf8))
        let error = #expect(throws: ArtifactError.self) { try ArtifactFile(path: path) }
        if case .badMagic = error {} else { Issue.record("expected badMagic, got \(String(describing: error))") }
    }

    @Test("an unknown major version is refused, naming both versions")
    func unknownMajor() throws {
        var bytes = sampleBytes()
        bytes[8] = 2
        let error = #expect(throws: ArtifactError.self) { try ArtifactFile(path: try write(bytes)) }
        guard case let .unsupportedVersion(_, major, _, supported) = error else {
            Issue.record("expected unsupportedVersion, got \(String(describing: error))"); return
        }
        #expect(major == 2 && supported == 1)
    }

    @Test("a truncated file is refused, at every length short of whole")
    func truncated() throws {
        let bytes = sampleBytes()
        for length in [0, 7, 40, 64, bytes.count / 2, bytes.count - 1] {
            let path = try write(Array(bytes.prefix(length)))
            #expect(throws: ArtifactError.self) { try ArtifactFile(path: path) }
        }
        let error = #expect(throws: ArtifactError.self) { try ArtifactFile(path: try write(Array(bytes.dropLast(8)))) }
        if case .truncated = error {} else { Issue.record("expected truncated, got \(String(describing: error))") }
    }

    @Test("a flipped byte in a section fails its checksum; header-only opening defers the check to verify()")
    func badChecksum() throws {
        var bytes = sampleBytes()
        let file = try ArtifactFile(path: try write(bytes))
        let rows = try #require(file.info(FourCC("ROWS")))
        bytes[Int(rows.offset) + 1] ^= 0xFF
        let path = try write(bytes)
        let error = #expect(throws: ArtifactError.self) { try ArtifactFile(path: path) }
        guard case let .checksumMismatch(_, section, _, _) = error else {
            Issue.record("expected checksumMismatch, got \(String(describing: error))"); return
        }
        #expect(section == "ROWS")
        let deferred = try ArtifactFile(path: path, verification: .headerOnly)
        #expect(throws: ArtifactError.self) { try deferred.verify() }
    }

    @Test("a flipped byte in the section table fails the header checksum")
    func badHeaderChecksum() throws {
        var bytes = sampleBytes()
        bytes[ArtifactFormat.headerSize + 9] ^= 0x01  // a section offset
        let error = #expect(throws: ArtifactError.self) { try ArtifactFile(path: try write(bytes), verification: .headerOnly) }
        guard case let .checksumMismatch(_, section, _, _) = error else {
            Issue.record("expected checksumMismatch, got \(String(describing: error))"); return
        }
        #expect(section == "header")
    }

    @Test("the wrong kind of artifact is refused, both kinds named in words")
    func wrongKind() throws {
        let path = try write(sampleBytes())
        #expect(throws: ArtifactError.wrongKind(path: path, expected: "ACFT", found: "TEST")) {
            try ArtifactFile(path: path, expectedKind: AircraftSchema.kind)
        }
        // In words, the kinds FieldGuide writes by name (a birds artifact given as --aircraft).
        #expect(ArtifactError.wrongKind(path: "b.fgb", expected: "ACFT", found: "BIRD").description
                == "b.fgb: expected an aircraft artifact (ACFT), found a birds artifact (BIRD)")
        #expect(ArtifactError.wrongKind(path: path, expected: "ACIX", found: "TEST").description
                == "\(path): expected a manufacturer index (ACIX), found an artifact of kind \"TEST\"")
    }

    @Test("a row table whose size is not whole rows is malformed")
    func partialRows() throws {
        let bytes = [UInt8](repeating: 0, count: 7)
        _ = bytes.withUnsafeBytes { raw in
            #expect(throws: ArtifactError.self) {
                try RowTable(raw, layout: RowLayout<Column>(), tag: FourCC("ROWS"), path: "x")
            }
        }
    }

    @Test("an atomic write that is abandoned leaves the old file untouched")
    func atomicAbort() throws {
        let path = try write(Array("old".utf8))
        let writer = try AtomicFileWriter(path: path)
        try writer.write(Array("new, half written".utf8))
        writer.abort()
        #expect(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self) == "old")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        #expect(leftovers == ["t.fgb"])
    }

    @Test("a streamed write holds exactly its pieces, unbuffered or not, at sizes around the 4 KiB and 4 MiB blocks",
          arguments: [true, false])
    func streamed(unbuffered: Bool) throws {
        let block = 4 << 20
        let longest = [UInt8](unsafeUninitializedCapacity: 2 * block + 4_099) { bytes, count in
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 131 &+ i >> 12) }
            count = bytes.count
        }
        for size in [0, 1, 4_095, 4_096, 4_097, block - 1, block, block + 1, longest.count] {
            // Pieces of odd lengths, so that they straddle the blocks.
            let bytes = Array(longest[0..<size])
            let path = try write(Array("old".utf8))
            let writer = try AtomicFileWriter(path: path)
            let written = try writer.stream(unbuffered: unbuffered) { put in
                var start = 0, length = 1
                while start < size {
                    let end = min(size, start + length)
                    try bytes.withUnsafeBytes { try put(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                    start = end
                    length = length * 3 + 7
                }
            }
            // Patched afterwards, as the artifact's header is.
            if size >= 3 { try writer.write(Array("new".utf8), at: 0) }
            try writer.commit()
            var expected = bytes
            if size >= 3 { expected.replaceSubrange(0..<3, with: Array("new".utf8)) }
            #expect(written == size)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected, "\(size) bytes")
        }
    }

    @Test("a streamed write whose producer fails leaves the old file untouched and no temporary file")
    func streamedFailure() throws {
        struct Failure: Error {}
        let path = try write(Array("old".utf8))
        let writer = try AtomicFileWriter(path: path)
        #expect(throws: LocatedError.self) {
            try writer.stream { put in
                try [UInt8](repeating: 1, count: 5 << 20).withUnsafeBytes { try put($0) }
                throw Failure()
            }
        }
        #expect(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self) == "old")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        #expect(leftovers == ["t.fgb"])
    }

    @Test("an atomic copy streams the file past its megabyte buffer; a missing source writes nothing; an unreadable one is an error, the old file kept")
    func atomicCopy() throws {
        let source = try write((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent().path
        let copy = try #require(try AtomicFile.prepareCopy(source, to: directory + "/copy"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/copy"), "not in place before commit")
        #expect(copy.size == (3 << 20) + 17)
        try copy.commit()
        #expect(FileManager.default.contents(atPath: directory + "/copy") == FileManager.default.contents(atPath: source))
        #expect(try AtomicFile.prepareCopy(directory + "/absent", to: directory + "/none") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/none"))
        let error = #expect(throws: LocatedError.self) { try AtomicFile.prepareCopy(directory, to: directory + "/copy") }
        #expect(error?.kind == .unreadable && error?.description.contains("read failed") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["copy", "t.fgb"])
        #expect(FileManager.default.contents(atPath: directory + "/copy") == FileManager.default.contents(atPath: source))
    }

    @Test("an output set: its files on disk beside their places, none renamed until commit; dropped, it leaves the old files and no temporary one")
    func outputSet() throws {
        let old = try write(Array("old".utf8))
        let directory = URL(fileURLWithPath: old).deletingLastPathComponent().path
        do {
            let set = OutputSet()
            let written = try set.write(Array("new".utf8), to: old)
            try set.write(Array("other".utf8), to: directory + "/other.txt")
            #expect(written.bytes == 3 && written.sha256 == FileDigest.sha256(Array("new".utf8)))
            #expect(FileManager.default.contents(atPath: old) == Data("old".utf8), "nothing renamed before commit")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 3, "the two temporary files beside t.fgb")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["t.fgb"], "dropped: the temporary files go")
        #expect(FileManager.default.contents(atPath: old) == Data("old".utf8))
        let set = OutputSet()
        try set.write(Array("new".utf8), to: old)
        try set.write(Array("other".utf8), to: directory + "/other.txt")
        try set.commit()
        #expect(FileManager.default.contents(atPath: old) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["other.txt", "t.fgb"])
    }

    @Test("name folding ignores case and diacritics")
    func folding() {
        #expect(NameFolding.fold("Cèssna") == "CESSNA")
        #expect(NameFolding.fold("piper") == "PIPER")
        // The ASCII path (bytes in place) upper-cases exactly what `uppercased()` does.
        let ascii = String(decoding: (1..<0x80).map { UInt8($0) }, as: UTF8.self)
        for text in [ascii, "", "a", "short name", "a name longer than fifteen bytes", String(ascii.reversed())] {
            #expect(NameFolding.fold(text) == text.uppercased(), "\(text)")
        }
    }
}
