/// The text of one element gathered over its text nodes as UTF-8 bytes (libxml2 may hand it in
/// several), made into a `String` once, when the element ends. The storage is kept between
/// elements, so gathering allocates nothing per element.
///
/// Its own buffer, not an `[UInt8]`: `Array.append(contentsOf:)` cost about 130 instructions
/// a text node (its generic copy), a memory copy a few; copied on write like an array.
///
/// ```swift
/// var text = TextBytes()
/// text.append(reader.text)           // at each .text
/// point.name = text.trimmed          // at .end: "Hide 3"
/// text.reset()
/// ```
struct TextBytes {
    private final class Storage {
        let start: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            start = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { start.deallocate() }
    }

    private var storage = Storage(capacity: 256)
    private(set) var count = 0

    mutating func reset() { count = 0 }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress, !text.isEmpty else { return }
        let needed = count + text.count
        if needed > storage.capacity || !isKnownUniquelyReferenced(&storage) { grow(to: needed) }
        (storage.start + count).initialize(from: source, count: text.count)
        count = needed
    }

    private mutating func grow(to needed: Int) {
        let bigger = Storage(capacity: max(needed, storage.capacity * 2))
        bigger.start.initialize(from: storage.start, count: count)
        storage = bigger
    }

    /// The bytes gathered, valid while `body` runs.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withExtendedLifetime(storage) { body(UnsafeBufferPointer(start: storage.start, count: count)) }
    }

    /// The text as written.
    var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The text without leading and trailing ASCII white space (what `trimmedASCII` gives).
    var trimmed: String { withTrimmed { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the bytes of `trimmed`, no string made.
    func withTrimmed<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withBytes { all in
            var start = 0, end = all.count
            while start < end, Self.isSpace(all[start]) { start += 1 }
            while end > start, Self.isSpace(all[end - 1]) { end -= 1 }
            return body(UnsafeBufferPointer(rebasing: all[start..<end]))
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
