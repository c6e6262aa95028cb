import Foundation

/// Strings that live as long as the process and are never reference counted: a bundle's code
/// names, copied into every record that reads a code.
///
/// Why: `RegistrationRecord.info` hands out a dozen code values (`Fixed wing single engine`,
/// `Type Certificated`, ...). A name longer than 15 bytes is a heap string, and every copy
/// into a record is an atomic increment of its count, every release of the record an atomic
/// decrement: five or six pairs a registration, where retains and releases were a fifth of
/// `.info`'s cycles (about 2-4% of its time went with these). A string literal has no
/// count to change: its two words point at bytes that live for the whole process, with the
/// "immortal" bit set, and the runtime skips it. This store makes such strings out of text read
/// at run time, by writing the words a literal of the same bytes would have.
///
/// That layout is part of the standard library's stable ABI on Apple's platforms (a literal
/// compiled into an app is read by the system's library), and it is checked before it is used
/// here: `layoutHolds` compares a literal's words with the words this code would write for
/// the literal's own bytes. Where they differ, `text(_:)` returns the string unchanged.
///
/// The bytes are never freed, so the store is bounded: one copy per distinct text (later
/// requests share it), at most `capacity` bytes in all; past that, text is returned unchanged.
/// Short text (15 bytes or fewer) is stored inline in the string itself and also returned
/// unchanged.
///
/// ```swift
/// let name = ImmortalText.shared.text(decodedName)   // == decodedName, never retained
/// ```
package final class ImmortalText: @unchecked Sendable {
    /// The process's store: 256 KB, some hundred times the FAA's code names.
    package static let shared = ImmortalText(capacity: 256 * 1024)

    /// The most bytes (with a terminating zero each) the store ever keeps.
    package let capacity: Int
    private let lock = NSLock()
    private var kept: [String: String] = [:]
    private var used = 0

    /// A store of at most `capacity` bytes (the process's is `shared`; tests make small ones).
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Bytes kept so far.
    package var usedBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return used
    }

    /// `text`, made immortal when it is longer than 15 bytes, the layout holds and the store has
    /// room; else `text` itself. Equal text gives the same immortal string.
    package func text(_ text: String) -> String {
        let count = text.utf8.count
        guard count > 15, Self.layoutHolds else { return text }
        lock.lock(); defer { lock.unlock() }
        if let known = kept[text] { return known }
        guard used + count + 1 <= capacity else { return text }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: count + 1)
        var isASCII = true
        for (i, byte) in text.utf8.enumerated() {
            bytes[i] = byte
            isASCII = isASCII && byte < 0x80
        }
        bytes[count] = 0   // as a literal's: `withCString` may hand the bytes out as they are
        let made = unsafeBitCast(Self.words(address: UInt(bitPattern: bytes), count: count, isASCII: isASCII), to: String.self)
        kept[text] = made
        used += count + 1
        return made
    }

    /// The words of an immortal string of `count` bytes at `address`, as the compiler writes a
    /// literal's: the count with its flags (ASCII, NFC when ASCII, tail-allocated, which says
    /// the bytes are contiguous and zero-terminated), then the address less 32 (the offset of a
    /// native string's bytes from its object) with the immortal bit.
    static func words(address: UInt, count: Int, isASCII: Bool) -> (UInt64, UInt64) {
        let flags: UInt64 = isASCII ? 0xD000_0000_0000_0000 : 0x1000_0000_0000_0000
        return (flags | UInt64(count), 0x8000_0000_0000_0000 | (UInt64(address) &- 32))
    }

    /// Whether this platform's literals are laid out as `words(address:count:isASCII:)` writes
    /// them, ASCII and not.
    static let layoutHolds: Bool = {
        guard MemoryLayout<String>.size == 16, MemoryLayout<UInt>.size == 8 else { return false }
        func matches(_ literal: String, isASCII: Bool) -> Bool {
            guard let address = literal.utf8.withContiguousStorageIfAvailable({ $0.baseAddress.map(UInt.init(bitPattern:)) }) ?? nil
            else { return false }
            let actual = unsafeBitCast(literal, to: (UInt64, UInt64).self)
            let expected = words(address: address, count: literal.utf8.count, isASCII: isASCII)
            return actual == expected
        }
        return matches("Fixed wing single engine", isASCII: true) && matches("Ré-immatriculation en cours", isASCII: false)
    }()
}
