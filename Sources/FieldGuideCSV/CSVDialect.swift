/// How a CSV file is delimited and quoted.
///
/// libcsv's defaults trim spaces and tabs around unquoted fields; FieldGuide never lets it:
/// every dialect keeps bytes as they are and callers trim deliberately.
///
/// ```swift
/// let faa = CSVDialect.unquoted          // FAA registry: commas, never quoted, `"` is data
/// let tsv = CSVDialect(delimiter: UInt8(ascii: "\t"))
/// ```
public struct CSVDialect: Sendable, Hashable {
    /// The field delimiter byte.
    public var delimiter: UInt8
    /// The quote byte, or `nil` for files whose fields are never quoted (a `"` is then data).
    public var quote: UInt8?
    /// Strip a leading UTF-8 byte order mark.
    public var skipsByteOrderMark: Bool

    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8? = UInt8(ascii: "\""), skipsByteOrderMark: Bool = true) {
        self.delimiter = delimiter
        self.quote = quote
        self.skipsByteOrderMark = skipsByteOrderMark
    }

    /// RFC 4180: comma separated, `"` quoted, `""` escapes a quote.
    public static let rfc4180 = CSVDialect()
    /// Comma separated with no quoting at all, as the FAA releasable files are written.
    public static let unquoted = CSVDialect(quote: nil)
    /// Tab separated, unquoted (eBird Basic Dataset).
    public static let tabSeparated = CSVDialect(delimiter: UInt8(ascii: "\t"), quote: nil)
}
