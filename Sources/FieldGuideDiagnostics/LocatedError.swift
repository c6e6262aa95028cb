/// One shape for "this input is wrong here": where (file, line, column, field), what was
/// expected, what was found, and what kind of wrong it is.
///
/// Every layer that reads a file (CSV, JSON, XML, the FAA, bird and export readers, the
/// pipeline file) throws this, so a stage renders every failure the same way and maps it to
/// an exit status in one place (``Kind/isUsageOrIO``).
///
/// ```swift
/// throw LocatedError(.wrongHeader, file: "MASTER.txt", line: 1,
///                    expected: "N-NUMBER,SERIAL NUMBER,…", found: "a,b",
///                    message: "not the MASTER layout")
/// // MASTER.txt:1: not the MASTER layout (expected N-NUMBER,SERIAL NUMBER,…; found a,b)
/// ```
public struct LocatedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of wrong: decides the exit status (``isUsageOrIO``).
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The file or directory could not be opened or read.
        case unreadable
        /// An output could not be created or written.
        case unwritable
        /// A file the stage needs is not there.
        case missingFile
        /// An argument or option is wrong (a bad value, a bad combination).
        case usage
        /// The bytes are not valid for the format (an unterminated quote, XML not well formed).
        case malformed
        /// A readable file that is another kind than claimed (another table, another layout).
        case wrongKind
        /// A readable file that is none of the formats the reader knows (an export that is
        /// neither XMP, GPX, a property list nor a known CSV).
        case unrecognized
        /// The header is not the layout's.
        case wrongHeader
        /// Text that is not the encoding the file declares.
        case encoding
        /// Refused on purpose (entity declarations, an attribute bomb).
        case refused
        /// Past a documented bound (line length, nesting, archive size).
        case tooLarge
        /// A zero-byte or white-space-only file.
        case empty
        /// A value that does not fit the field (a date that does not parse, an unknown code).
        case invalidValue
        /// More rows were rejected than the configured share allows.
        case tooManyRejects
        /// A hand-off between stages is missing, failed, or does not match its hashes.
        case badHandOff
        /// The parser ran out of resources (libcsv could not allocate).
        case resources

        /// True for the kinds a stage reports as a usage or I/O failure (exit 2); every
        /// other kind is data rejected (exit 1).
        public var isUsageOrIO: Bool {
            switch self {
            case .unreadable, .unwritable, .missingFile, .usage, .resources: return true
            default: return false
            }
        }
    }

    public var kind: Kind
    /// The file as the user named it. Empty when no one file is at fault (a usage error about
    /// several, a query parameter) or for a value checked before its file is known (the
    /// caller reports it at its record); the description then starts at the line, or the field.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// The field or key the problem is in, when known.
    public var field: String?
    /// What a valid input has here, when it can be said briefly.
    public var expected: String?
    /// What the input has here, as written (``description`` shortens it).
    public var found: String?
    /// What is wrong, in words.
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, column: Int? = nil, field: String? = nil,
                expected: String? = nil, found: String? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line.flatMap { $0 > 0 ? $0 : nil }
        self.column = column.flatMap { $0 > 0 ? $0 : nil }
        self.field = field
        self.expected = expected
        self.found = found
        self.message = message
    }

    /// `file:line:column` (the parts that are known).
    public var location: String {
        var parts = file.isEmpty ? [] : [Self.visible(file)]
        if let line {
            parts.append(String(line))
            if let column { parts.append(String(column)) }
        }
        return parts.joined(separator: ":")
    }

    /// `file:line:column: field: message (expected …; found …)`.
    public var description: String { (location.isEmpty ? "" : location + ": ") + detail }

    /// The description without the location: `field: message (expected …; found …)`, for a
    /// report that places the error itself (`validate`'s findings).
    public var detail: String {
        var text = ""
        if let field, !field.isEmpty { text += "\(field): " }
        text += message
        switch (expected, found.map(Self.shortened)) {
        case let (expected?, found?): text += " (expected \(expected); found \(found))"
        case let (expected?, nil): text += " (expected \(expected))"
        case let (nil, found?): text += " (found \(found))"
        case (nil, nil): break
        }
        return text
    }

    /// This error as another kind, where the caller knows better what it means (a hand-off
    /// report that does not decode is a bad hand-off).
    public func reclassified(as kind: Kind) -> LocatedError {
        var copy = self
        copy.kind = kind
        return copy
    }

    /// This error as the option that named the file reports it: whatever is wrong inside the
    /// file is a usage error of the option (`--taxonomy other.csv`); a file that cannot be
    /// read stays an I/O error.
    public func asOptionError() -> LocatedError {
        kind.isUsageOrIO ? self : reclassified(as: .usage)
    }

    /// A found value is shown as written, up to 80 characters: `String(repeating: "x", count: 100)`
    /// reads as 77 `x` and `...`. Messages that echo an argument use it too, so a pasted file
    /// does not come back whole. Control characters are escaped (``visible(_:)``).
    public static func shortened(_ text: String) -> String {
        visible(text.count <= 80 ? text : String(text.prefix(77)) + "...")
    }

    /// `text` with its control characters escaped, so that a file name or a found value cannot
    /// break a message over lines (a fake second error in a log) or send terminal escapes.
    /// `keepingLines` leaves line feeds and tabs as they are, for text laid out in lines.
    ///
    /// ```swift
    /// LocatedError.visible("a\nb\u{1B}[2J.gpx")   // a\nb\u{1B}[2J.gpx, on one line
    /// ```
    public static func visible(_ text: String, keepingLines: Bool = false) -> String {
        func kept(_ byte: UInt32) -> Bool { keepingLines && (byte == 0x0A || byte == 0x09) }
        guard text.utf8.contains(where: { ($0 < 0x20 || $0 == 0x7F) && !kept(UInt32($0)) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case let value where kept(value): out.unicodeScalars.append(scalar)
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
