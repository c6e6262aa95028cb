/// The text of one element gathered over its text nodes as UTF-8 bytes (libxml2 may hand it in
/// several), made into a `String` once, when the element ends. The storage is kept between
/// elements, so gathering allocates nothing per element.
///
/// ```swift
/// var text = TextBytes()
/// text.append(reader.text)           // at each .text
/// point.name = text.trimmed          // at .end: "Hide 3"
/// text.reset()
/// ```
struct TextBytes {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: text) }

    /// The text as written.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The text without leading and trailing ASCII white space (what `trimmedASCII` gives).
    var trimmed: String {
        bytes.withUnsafeBufferPointer { all in
            var start = 0, end = all.count
            while start < end, Self.isSpace(all[start]) { start += 1 }
            while end > start, Self.isSpace(all[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: all[start..<end]), as: UTF8.self)
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
