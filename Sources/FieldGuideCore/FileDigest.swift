import Crypto
import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation

/// SHA-256 of files and byte buffers, as lowercase hex.
///
/// ```swift
/// let digest = try FileDigest.sha256(ofFileAt: "input/faa/ENGINE.txt")
/// ```
public enum FileDigest {
    public static func sha256(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// SHA-256 of a buffer (a mapped file, say).
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(bufferPointer: bytes)
        return hex(hasher.finalize())
    }

    /// Streams the file through SHA-256 in 1 MiB chunks (`path: cannot read for hashing: No
    /// such file or directory` when it cannot).
    ///
    /// One buffer is read into again and again: a stage's large blocks are mappings of their
    /// own (`StageMemory`), so a fresh chunk per read would be a fresh mapping, zeroed, per MiB.
    public static func sha256(ofFileAt path: String) throws(LocatedError) -> (digest: String, bytes: Int) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)) } catch {
            throw LocatedError(path, failed: error, doing: "cannot read for hashing")
        }
        defer { try? handle.close() }
        let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var total = 0
        while true {
            let n = read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else {
                throw LocatedError(.unreadable, file: path, message: "cannot read for hashing: \(SystemReason.errnoText)")
            }
            if n == 0 { break }
            total += n
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return (hex(hasher.finalize()), total)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// SHA-256 over bytes as they stream past (a file is hashed in the same pass that parses it).
///
/// A value (Crypto's `SHA256` is one, copied on write, only not marked `Sendable`): a copy
/// handed to another thread is that thread's alone, as `SplitFile.readHalves` hands the first
/// half's digest to the thread that hashes the rest.
public struct StreamingDigest: RunningDigest, @unchecked Sendable {
    private var hasher = SHA256()
    public private(set) var bytes = 0

    public init() {}

    public mutating func update(_ chunk: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: chunk)
        bytes += chunk.count
    }

    public func finalize() -> String { FileDigest.hex(hasher.finalize()) }
}
