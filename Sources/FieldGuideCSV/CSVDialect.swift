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
/// faa.maxRecordBytes                     // 65536: a longer record is refused as it passes the bound
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
    /// The longest record `CSVParser` accepts, in bytes of field content (quotes and delimiters
    /// not counted; for `dropsTrailingPadding`, after the padding is dropped, and a run of
    /// padding spaces longer than this is refused too). A longer record is refused as a
    /// `.tooLarge` error as soon as it passes the bound, so memory stays bounded by it whatever
    /// the file holds: a file of one 300 MB line costs no more than a file of short ones.
    public var maxRecordBytes: Int

    /// The bound of a CSV file from other software (an eBird export, a taxonomy, the hand-off
    /// files): 1 MiB, far above any real record (an eBird row with long comments is a few KiB).
    public static let defaultMaxRecordBytes = 1 << 20
    /// The bound of the FAA's files: 64 KiB, a hundred times their longest record (MASTER's
    /// 600-odd bytes, about 180 without padding).
    public static let faaMaxRecordBytes = 64 << 10

    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8? = UInt8(ascii: "\""), skipsByteOrderMark: Bool = true,
                dropsTrailingPadding: Bool = false, maxRecordBytes: Int = CSVDialect.defaultMaxRecordBytes) {
        self.delimiter = delimiter
        self.quote = quote
        self.skipsByteOrderMark = skipsByteOrderMark
        self.dropsTrailingPadding = dropsTrailingPadding
        self.maxRecordBytes = maxRecordBytes
    }

    /// RFC 4180: comma separated, `"` quoted, `""` escapes a quote.
    public static let rfc4180 = CSVDialect()
    /// Comma separated with no quoting at all, as the FAA releasable files are written.
    public static let unquoted = CSVDialect(quote: nil, maxRecordBytes: faaMaxRecordBytes)
    /// `unquoted` with every field's trailing space padding dropped: the FAA releasable files,
    /// whose fields are padded to the widths of their layout.
    public static let fixedWidth = CSVDialect(quote: nil, dropsTrailingPadding: true, maxRecordBytes: faaMaxRecordBytes)
    /// Tab separated, unquoted (eBird Basic Dataset).
    public static let tabSeparated = CSVDialect(delimiter: UInt8(ascii: "\t"), quote: nil)
}
