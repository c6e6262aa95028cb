import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideDiagnostics
import FieldGuideWorkers
import Foundation
import Testing
import TestSupport

@Suite("Large sections wait for the write in a scratch file, not in memory")
struct SectionSpoolTests {
    /// Sections of odd sizes around the spool's threshold and its 4 MB chunks, added out of tag
    /// order (small ones stay in memory).
    static let sections: [(tag: FourCC, size: Int)] = [
        (FourCC("ZZZZ"), (4 << 20) + 4_097), (FourCC("AAAA"), 100), (FourCC("MMMM"), SectionSpool.threshold),
        (FourCC("CCCC"), SectionSpool.threshold - 1), (FourCC("BBBB"), (1 << 20) + 13), (FourCC("EEEE"), 0),
    ]

    static func build(_ spool: SectionSpool?, spooled: Bool = true) -> ArtifactBuilder {
        var builder = ArtifactBuilder(kind: FourCC("TEST"), spool: spool)
        for (i, section) in sections.enumerated() {
            builder.addSection(section.tag, rows: i, bytes: (0..<section.size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ i &* 7) },
                               spooled: spooled)
        }
        return builder
    }

    @Test("spooled in an unlinked scratch file or a given one, the file and its observed bytes are the in-memory builder's")
    func sameBytes() throws {
        let expected = try Self.build(nil).serialize()
        let directory = try TestPaths.temporaryDirectory("spool")
        let unlinked = try SectionSpool(directory: directory.path)
        let scratch = directory.appendingPathComponent("given").path
        let given = SectionSpool(descriptor: open(scratch, O_RDWR | O_CREAT, 0o600), path: scratch)
        for (name, spool) in [("unlinked", unlinked), ("given", given)] {
            let path = directory.appendingPathComponent("t.fgb").path
            var observed: [UInt8] = []
            let builder = Self.build(spool)
            let (size, sections) = try builder.write(to: path) { observed.append(contentsOf: $0) }
            let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(onDisk == expected, "\(name)")
            #expect(observed == expected && size == expected.count)
            #expect(try builder.serialize() == expected)
            #expect(sections.map(\.tag) == ["AAAA", "BBBB", "CCCC", "EEEE", "MMMM", "ZZZZ"])
            _ = try ArtifactFile(path: path)  // checks every CRC
        }
        // The unlinked spool's file went when it was made: nothing is left beside the artifact.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["given", "t.fgb"])
    }

    @Test("sections of several read-back chunks each share the spool's kept buffers: every write of them, repeated, is the in-memory builder's file")
    func keptReadBuffers() throws {
        let directory = try TestPaths.temporaryDirectory("spool-kept")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = try SectionSpool(directory: directory.path)
        var builder = ArtifactBuilder(kind: FourCC("TEST"), spool: spool), memory = ArtifactBuilder(kind: FourCC("TEST"), spool: nil)
        // Sizes past one, two and three 4 MB chunks, and one under a chunk between them.
        let tags = [FourCC("SAAA"), FourCC("SBBB"), FourCC("SCCC"), FourCC("SDDD")]
        for (i, size) in [(9 << 20) + 5, (4 << 20) + 1, (2 << 20) + 3, (12 << 20) + 4_095].enumerated() {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12 &+ i) }
            builder.addSection(tags[i], rows: i, bytes: bytes)
            memory.addSection(tags[i], rows: i, bytes: bytes)
        }
        let expected = try memory.serialize()
        for round in 0..<2 {
            let path = directory.appendingPathComponent("t\(round).fgb").path
            try builder.write(to: path)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected, "write \(round)")
        }
    }

    @Test("sections streamed into the spool piece by piece, unlinked or given, give the in-memory builder's file; a refused store fails the write")
    func streamed() throws {
        let expected = try Self.build(nil).serialize()
        let directory = try TestPaths.temporaryDirectory("spool-stream")
        let scratch = directory.appendingPathComponent("given").path
        let readOnly = directory.appendingPathComponent("read-only").path
        #expect(FileManager.default.createFile(atPath: readOnly, contents: nil))
        let spools = [try SectionSpool(directory: directory.path), SectionSpool(descriptor: open(scratch, O_RDWR | O_CREAT, 0o600), path: scratch)]
        for spool in spools + [SectionSpool(descriptor: open(readOnly, O_RDONLY), path: directory.path)] {
            var builder = ArtifactBuilder(kind: FourCC("TEST"), spool: spool)
            for (i, section) in Self.sections.enumerated() {
                let bytes = (0..<section.size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ i &* 7) }
                // Pieces of odd sizes: 1 byte, 4,095 bytes, then the rest.
                let streamed = spool.stream(count: bytes.count) { sink in
                    bytes.withUnsafeBytes { raw in
                        var done = 0
                        for piece in [1, 4_095, bytes.count] where done < bytes.count {
                            let n = min(piece, bytes.count - done)
                            sink.write(UnsafeRawBufferPointer(rebasing: raw[done..<done + n]))
                            done += n
                        }
                    }
                }
                builder.addSection(section.tag, rows: i, spooled: streamed)
            }
            let path = directory.appendingPathComponent("t.fgb").path
            guard spools.contains(where: { $0 === spool }) else {  // the read-only one
                let error = #expect(throws: LocatedError.self) { try builder.write(to: path) }
                #expect(error?.kind == .unwritable && error?.description.contains("cannot write a section to the scratch file") == true)
                continue
            }
            try builder.write(to: path)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        }
    }

    @Test("sections held on worker threads (hold(_:in:)): large ones stored at once, small ones kept; the in-memory builder's file; a refused store fails the write")
    func held() throws {
        let expected = try Self.build(nil).serialize()
        let directory = try TestPaths.temporaryDirectory("spool-hold")
        let readOnly = directory.appendingPathComponent("read-only").path
        _ = FileManager.default.createFile(atPath: readOnly, contents: nil)
        let refusing = SectionSpool(descriptor: open(readOnly, O_RDONLY), path: directory.path)
        for spool in [try SectionSpool(directory: directory.path), nil, refusing] {
            // Each section made and held on a thread of its own, as a builder's workers do.
            let tasks = Self.sections.enumerated().map { i, section in
                BackgroundTask { SectionSpool.hold((0..<section.size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ i &* 7) }, in: spool) }
            }
            var builder = ArtifactBuilder(kind: FourCC("TEST"), spool: spool)
            for (i, (section, task)) in zip(Self.sections, tasks).enumerated() {
                let payload = task.finished()
                switch payload {
                case .bytes: #expect(spool == nil || section.size < SectionSpool.threshold, "\(section.tag)")
                case .spooled: #expect(spool != nil && section.size >= SectionSpool.threshold, "\(section.tag)")
                }
                builder.addSection(section.tag, rows: i, payload)
            }
            let path = directory.appendingPathComponent("t.fgb").path
            if spool === refusing {
                let error = #expect(throws: LocatedError.self) { try builder.write(to: path) }
                #expect(error?.kind == .unwritable && error?.description.contains("cannot write a section to the scratch file") == true)
                continue
            }
            try builder.write(to: path)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        }
    }

    @Test("a section the spool cannot store fails the write with the scratch file's error; the published file stays")
    func storeFails() throws {
        let directory = try TestPaths.temporaryDirectory("spool-full")
        let path = directory.appendingPathComponent("t.fgb").path
        try Self.build(nil).write(to: path)
        let published = try Data(contentsOf: URL(fileURLWithPath: path))
        // Read-only: every store is refused (EBADF), as a full disk would refuse it (ENOSPC).
        let scratch = directory.appendingPathComponent("scratch").path
        #expect(FileManager.default.createFile(atPath: scratch, contents: nil))
        let spool = SectionSpool(descriptor: open(scratch, O_RDONLY), path: directory.path)
        let error = #expect(throws: LocatedError.self) { try Self.build(spool).write(to: path) }
        #expect(error?.kind == .unwritable)
        #expect(error?.description.contains("cannot write a section to the scratch file") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == published)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["scratch", "t.fgb"])
    }

    @Test("sections added with spooled: false stay in memory: a spool that refuses every store is never asked")
    func keptInMemory() throws {
        let directory = try TestPaths.temporaryDirectory("spool-kept")
        let scratch = directory.appendingPathComponent("scratch").path
        _ = FileManager.default.createFile(atPath: scratch, contents: nil)
        let spool = SectionSpool(descriptor: open(scratch, O_RDONLY), path: directory.path)
        let path = directory.appendingPathComponent("t.fgb").path
        try Self.build(spool, spooled: false).write(to: path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try Self.build(nil).serialize()))
    }

    @Test("a section the spool cannot give back fails the write as unreadable")
    func readFails() throws {
        let directory = try TestPaths.temporaryDirectory("spool-unreadable")
        let scratch = directory.appendingPathComponent("scratch").path
        let spool = SectionSpool(descriptor: open(scratch, O_WRONLY | O_CREAT, 0o600), path: scratch)
        let path = directory.appendingPathComponent("t.fgb").path
        let error = #expect(throws: LocatedError.self) { try Self.build(spool).write(to: path) }
        #expect(error?.kind == .unreadable)
        #expect(error?.description.contains("cannot read a section back from the scratch file") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the scratch file goes through the page cache: opened without O_DIRECT, its stores and read-backs never wait for the device")
    func throughThePageCache() throws {
        #if os(Linux)
        let directory = try TestPaths.temporaryDirectory("spool-cache")
        let spool = try SectionSpool(directory: directory.path)
        // The spool's descriptor, found by its unlinked file's name (`/proc/self/fd`), and its
        // open flags (`/proc/self/fdinfo`, octal). O_DIRECT is 0o40000 on x86-64, 0o200000 on arm64.
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let spoolFD = fds.first { fd in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) ?? ""
            return target.hasPrefix(directory.path + "/.spool-") && target.hasSuffix("(deleted)")
        }
        let fd = try #require(spoolFD, "the spool's unlinked scratch file among this process's descriptors")
        let info = try String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)
        let flagsLine = try #require(info.split(separator: "\n").first { $0.hasPrefix("flags:") })
        let flags = try #require(Int(flagsLine.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        #if arch(arm64)
        let direct = 0o200000
        #else
        let direct = 0o40000
        #endif
        #expect(flags & direct == 0, "flags \(String(flags, radix: 8))")
        // And it holds sections as before.
        let path = directory.appendingPathComponent("t.fgb").path
        try Self.build(spool).write(to: path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try Self.build(nil).serialize()))
        #endif
    }
}
