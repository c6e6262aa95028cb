@testable import FieldGuidePipeline
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// The digests a run carries over to the next by the files' stamps (`DigestCache`): taken when
/// the stamp is the one recorded and the file was not changed in the second before it was
/// hashed; anything else is read and hashed again.
@Suite("Source digests carried over by stamp")
struct DigestCacheTests {
    /// A directory with `MASTER.txt` in it and the path of a cache file beside it.
    private func setUp() throws -> (directory: URL, file: String, cache: String) {
        let directory = try TestPaths.temporaryDirectory("digest-cache")
        let file = directory.appendingPathComponent("MASTER.txt").path
        try Data("N-NUMBER,SERIAL NUMBER,\r\n12345,ABC,\r\n".utf8).write(to: URL(fileURLWithPath: file))
        return (directory, file, directory.appendingPathComponent("digests.json").path)
    }

    /// Stores an entry for each file with its current stamp and `sha256`, hashed
    /// `secondsAfterChange` after the file's last change (the cache holds these entries only).
    private func store(_ files: [String], sha256: String, secondsAfterChange: Double, in cache: String) throws {
        var entries: [String: DigestCache.Entry] = [:]
        for file in files {
            let stamp = try #require(ContentDigest.Stamp(path: file))
            entries[file] = DigestCache.Entry(stamp, hashedAt: stamp.changed + Int64(secondsAfterChange * 1e9), sha256: sha256)
        }
        try JSONEncoder().encode(DigestCache.Stored(files: entries)).write(to: URL(fileURLWithPath: cache))
    }

    private func digest(_ file: String, _ cache: DigestCache) throws -> String {
        try cache.sha256(ofFileAt: file, stamp: try #require(ContentDigest.Stamp(path: file))).digest
    }

    @Test("an unchanged stamp, hashed well after the file's last change: the stored digest, the file not read")
    func unchangedStampIsTrusted() throws {
        let (directory, file, cache) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store([file], sha256: "stored", secondsAfterChange: 5, in: cache)
        #expect(try digest(file, DigestCache(path: cache)) == "stored")
    }

    @Test("a file rewritten in place to the same size: its change time moved, so it is hashed again")
    func sameSizeRewriteIsHashed() throws {
        let (directory, file, cache) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store([file], sha256: "stored", secondsAfterChange: 5, in: cache)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seek(toOffset: 25)
        try handle.write(contentsOf: Data("X".utf8))
        try handle.close()
        let real = try FileDigest.sha256(ofFileAt: file).digest
        #expect(try digest(file, DigestCache(path: cache)) == real)
    }

    @Test("a file replaced by another (a new inode), or changed within a second before it was hashed: hashed again")
    func replacedOrRacyIsHashed() throws {
        let (directory, file, cache) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = try FileDigest.sha256(ofFileAt: file).digest
        try store([file], sha256: "stored", secondsAfterChange: 0.5, in: cache)
        #expect(try digest(file, DigestCache(path: cache)) == real)

        try store([file], sha256: "stored", secondsAfterChange: 5, in: cache)
        let other = directory.appendingPathComponent("new").path
        try FileManager.default.copyItem(atPath: file, toPath: other)
        #expect(rename(other, file) == 0)
        #expect(try digest(file, DigestCache(path: cache)) == real)
    }

    @Test("a forced run (untrusted) hashes every file; what it hashed is saved, and only that")
    func untrustedHashesAndSaves() throws {
        let (directory, file, cache) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gone = directory.appendingPathComponent("gone.txt").path
        try Data("gone".utf8).write(to: URL(fileURLWithPath: gone))
        try store([file, gone], sha256: "stored", secondsAfterChange: 5, in: cache)
        try FileManager.default.removeItem(atPath: gone)
        let forced = DigestCache(path: cache, trusted: false)
        let real = try FileDigest.sha256(ofFileAt: file).digest
        #expect(try digest(file, forced) == real)
        forced.save()
        let saved = try JSONDecoder().decode(DigestCache.Stored.self, from: Data(contentsOf: URL(fileURLWithPath: cache)))
        #expect(Array(saved.files.keys) == [file])
        #expect(saved.files[file]?.sha256 == real)
    }

    @Test("a cache file that does not decode is rebuilt, never an error")
    func unreadableCacheIsRebuilt() throws {
        let (directory, file, cache) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: cache))
        let digests = DigestCache(path: cache)
        #expect(try digest(file, digests) == FileDigest.sha256(ofFileAt: file).digest)
        digests.save()
        #expect(try JSONDecoder().decode(DigestCache.Stored.self, from: Data(contentsOf: URL(fileURLWithPath: cache))).files.count == 1)
    }
}
