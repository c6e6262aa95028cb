/// How a CSV file is delimited and quoted.
///
/// libcsv's defaults trim spaces and tabs around unquoted fields; FieldGuide never lets it:
/// a dialect keeps bytes as they are and callers trim deliberately. The one deliberate trim a
/// dialect can ask for is `dropsTrailingPadding`, for files whose fields are space padded to
/// fixed widths.
///
/// ```swift
/// let faa = CSVDialect.fixedWidth        // FAA registry: commas, never quoted, `"` is data, padded
/// let tsv = CSVDialect(delimiter: UInt8(ascii: "\t"))
/// ```
public struct CSVDialect: Sendable, Hashable {
    /// The field delimiter byte.
    public var delimiter: UInt8
    /// The quote byte, or `nil` for files whose fields are never quoted (a `"` is then data).
    public var quote: UInt8?
    /// Strip a leading UTF-8 byte order mark.
    public var skipsByteOrderMark: Bool
    /// Drop the spaces (0x20, not tabs) that end a field, before libcsv sees the bytes: the
    /// padding of fixed-width fields. Leading spaces, and spaces inside a value, stay. Only for
    /// unquoted dialects (inside quotes a space before a delimiter is data); `CSVParser`
    /// refuses it with a quote byte.
    ///
    /// The FAA files are about 70% padding: dropping it first spares libcsv most of its bytes,
    /// and gives the fields exactly as trimming their ends afterwards would.
    public var dropsTrailingPadding: Bool

    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8? = UInt8(ascii: "\""), skipsByteOrderMark: Bool = true,
                dropsTrailingPadding: Bool = false) {
        self.delimiter = delimiter
        self.quote = quote
        self.skipsByteOrderMark = skipsByteOrderMark
        self.dropsTrailingPadding = dropsTrailingPadding
    }

    /// RFC 4180: comma separated, `"` quoted, `""` escapes a quote.
    public static let rfc4180 = CSVDialect()
    /// Comma separated with no quoting at all, as the FAA releasable files are written.
    public static let unquoted = CSVDialect(quote: nil)
    /// `unquoted` with every field's trailing space padding dropped: the FAA releasable files,
    /// whose fields are padded to the widths of their layout.
    public static let fixedWidth = CSVDialect(quote: nil, dropsTrailingPadding: true)
    /// Tab separated, unquoted (eBird Basic Dataset).
    public static let tabSeparated = CSVDialect(delimiter: UInt8(ascii: "\t"), quote: nil)
}
