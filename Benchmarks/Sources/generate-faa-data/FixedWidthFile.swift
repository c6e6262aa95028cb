#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one FAA releasable file: a UTF-8 byte order mark, then lines of fixed-width fields,
/// each field padded to its width and followed by a comma, each line ended by CR LF.
///
/// Lines are built in a byte buffer that goes to disk in chunks of a few MiB, so writing a
/// full MASTER (about 200 MB) costs little more than the copying.
///
/// ```swift
/// var file = try FixedWidthFile(path: "ENGINE.txt", header: ["CODE", "MFR"])
/// file.digits(401, width: 5)
/// file.text(Array("A.C.E.".utf8), width: 10)
/// file.endLine()
/// let bytes = try file.close()
/// ```
struct FixedWidthFile {
    /// Where the file is being written.
    let path: String
    /// Data lines written so far (the header is not counted).
    private(set) var lines = 0
    private var buffer: [UInt8] = []
    private var fieldStart = 0
    private var written = 0
    private var handle: UnsafeMutablePointer<FILE>?

    private static let chunkSize = 4 << 20
    private static let space: UInt8 = 0x20
    private static let comma: UInt8 = 0x2C

    /// Creates (or truncates) `path` and writes the byte order mark and `header`.
    ///
    /// The header names are written as given, unpadded, each followed by a comma, as the FAA does.
    init(path: String, header: [String]) throws(GeneratorError) {
        guard let handle = fopen(path, "wb") else {
            throw GeneratorError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.handle = handle
        buffer.reserveCapacity(Self.chunkSize + 4096)
        buffer.append(contentsOf: [0xEF, 0xBB, 0xBF])
        for name in header {
            buffer.append(contentsOf: name.utf8)
            buffer.append(Self.comma)
        }
        buffer.append(contentsOf: [0x0D, 0x0A])
    }

    // MARK: Whole fields

    /// A text field: `bytes` cut to `width` and padded with spaces on the right.
    mutating func text(_ bytes: [UInt8], width: Int) {
        beginField()
        append(bytes)
        endField(width: width)
    }

    /// A field of spaces only.
    mutating func blank(width: Int) {
        buffer.append(contentsOf: repeatElement(Self.space, count: width))
        buffer.append(Self.comma)
    }

    /// A number zero-padded to exactly `width` digits (`digits(82, width: 4)` → `0082`).
    mutating func digits(_ value: Int, width: Int) {
        appendPadded(value, radix: 10, digits: width)
        buffer.append(Self.comma)
    }

    /// A number zero-padded to `digits` characters in `radix` (upper-case letters), then
    /// space-padded to `width`: `radix(0xA63796, 16, digits: 6, width: 10)` → `A63796    `.
    mutating func radix(_ value: Int, _ radix: Int, digits: Int, width: Int) {
        beginField()
        appendPadded(value, radix: radix, digits: digits)
        endField(width: width)
    }

    /// A `YYYYMMDD` date from a day number (see `CivilDate`), or blanks for nil.
    mutating func date(_ day: Int?) {
        guard let day else { return blank(width: 8) }
        digits(CivilDate.yyyymmdd(day), width: 8)
    }

    // MARK: Fields built from parts

    /// Starts a field whose text is appended in parts; `endField(width:)` closes it.
    mutating func beginField() { fieldStart = buffer.count }

    /// Appends text to the open field.
    mutating func append(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }

    /// Appends one ASCII character to the open field.
    mutating func append(_ byte: UInt8) { buffer.append(byte) }

    /// Appends a decimal number without padding to the open field.
    mutating func append(number value: Int) {
        var width = 1, limit = 10
        while value >= limit && width < 19 { width += 1; limit &*= 10 }
        appendPadded(value, radix: 10, digits: width)
    }

    /// Closes the open field: cuts it to `width` or pads it with spaces, then adds the comma.
    mutating func endField(width: Int) {
        let length = buffer.count - fieldStart
        if length > width {
            buffer.removeLast(length - width)
        } else {
            buffer.append(contentsOf: repeatElement(Self.space, count: width - length))
        }
        buffer.append(Self.comma)
    }

    // MARK: Lines and the file

    /// Ends the line with CR LF, writing the buffer out once it holds a chunk.
    mutating func endLine() throws(GeneratorError) {
        buffer.append(0x0D)
        buffer.append(0x0A)
        lines += 1
        if buffer.count >= Self.chunkSize { try flush() }
    }

    /// Writes what is buffered, closes the file and returns its size in bytes.
    mutating func close() throws(GeneratorError) -> Int {
        try flush()
        guard let handle else { return written }
        self.handle = nil
        guard fclose(handle) == 0 else {
            throw GeneratorError("cannot close \(path): \(String(cString: strerror(errno)))")
        }
        return written
    }

    private mutating func flush() throws(GeneratorError) {
        guard let handle, !buffer.isEmpty else { return }
        let count = buffer.count
        let done = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, count, handle) }
        guard done == count else {
            throw GeneratorError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        written += count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends `value` in `radix` as exactly `digits` characters, zero-padded on the left
    /// (the high-order digits are dropped if it does not fit).
    private mutating func appendPadded(_ value: Int, radix: Int, digits: Int) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0x30, count: digits))
        var v = value, i = start + digits - 1
        while v > 0 && i >= start {
            let digit = UInt8(v % radix)
            buffer[i] = digit < 10 ? 0x30 + digit : 0x41 + digit - 10
            v /= radix
            i -= 1
        }
    }
}

/// Why the generator could not do what was asked.
struct GeneratorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
