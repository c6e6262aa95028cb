/// A section of fixed-width text: row `i` is bytes `i × width ..< (i + 1) × width`, the value
/// left-aligned and padded with spaces (values never end in a space).
///
/// The width is the section's length over its row count (from the section table), so the
/// section holds nothing but the text. Text in row order compresses like the FAA's own
/// fixed-width files (runs of padding, neighbouring values alike), and a row is read without an
/// offset table: the manufacturer index ships in apps whose download size counts.
///
/// ```swift
/// let codes = try TextColumn(file.section(tag), rows: Int(file.info(tag)!.rows), tag: tag, path: file.path)
/// codes.string(0)            // "0010102"
/// codes.find("0010104")      // 1 (rows sorted by their bytes)
/// ```
public struct TextColumn: @unchecked Sendable {
    /// The widest row a column may have (a documented bound: a crafted width is refused).
    public static let maximumWidth = 4096

    public let count: Int
    public let width: Int
    @usableFromInline let base: UnsafeRawPointer?

    /// `rows` comes from the section table: the section must be a whole number of rows of at
    /// most `maximumWidth` bytes each.
    public init(_ section: UnsafeRawBufferPointer, rows: UInt64, tag: FourCC, path: String) throws(ArtifactError) {
        guard rows > 0 else {
            guard section.isEmpty else {
                throw .malformedSection(path: path, section: tag.description, reason: "\(section.count) bytes for 0 rows")
            }
            count = 0
            width = 0
            base = nil
            return
        }
        guard rows <= UInt64(section.count), section.count % Int(rows) == 0, section.count / Int(rows) <= Self.maximumWidth else {
            throw .malformedSection(path: path, section: tag.description,
                                    reason: "\(section.count) bytes is not \(rows) rows of 1 to \(Self.maximumWidth) bytes")
        }
        count = Int(rows)
        width = section.count / count
        base = section.baseAddress
    }

    /// The bytes of row `row` without its padding (empty outside the column).
    @inlinable
    public func bytes(_ row: Int) -> UnsafeRawBufferPointer {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = base + row * width
        var length = width
        while length > 0 && start.load(fromByteOffset: length - 1, as: UInt8.self) == 0x20 { length -= 1 }
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    /// The bytes of row `row` with its padding (empty outside the column): for readers to whom
    /// trailing spaces are nothing, such as a count of search atoms.
    @inlinable
    public func paddedBytes(_ row: Int) -> UnsafeRawBufferPointer {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + row * width, count: width)
    }

    /// Row `row` decoded (invalid UTF-8 is replaced, never trusted).
    @inlinable
    public func string(_ row: Int) -> String { String(decoding: bytes(row), as: UTF8.self) }

    /// The first row not less than `key` (rows sorted by their bytes).
    public func lowerBound(_ key: UnsafeRawBufferPointer) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if compare(bytes(mid), key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first row holding `key` (rows sorted by their bytes), if any.
    public func find(_ key: UnsafeRawBufferPointer) -> Int? {
        let row = lowerBound(key)
        return row < count && compare(bytes(row), key) == 0 ? row : nil
    }

    /// `find` for text.
    public func find(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// The rows whose bytes start with `prefix` (rows sorted by their bytes).
    public func rows(withPrefix prefix: UnsafeRawBufferPointer) -> Range<Int> {
        let first = lowerBound(prefix)
        var low = first, high = count
        while low < high {
            let mid = (low + high) / 2
            let value = bytes(mid)
            let head = UnsafeRawBufferPointer(rebasing: value[0..<min(value.count, prefix.count)])
            if compare(head, prefix) <= 0 { low = mid + 1 } else { high = mid }
        }
        return first..<low
    }
}
