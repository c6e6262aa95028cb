#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bounds every XML file read through ``XMLStreamReader`` is held to.
///
/// One is FieldGuide's own, checked on the raw bytes before libxml2 sees them; the others are
/// libxml2's built-in limits, which hold because `XML_PARSE_HUGE` is never set:
///
/// | bound | value | checked by |
/// | --- | --- | --- |
/// | attributes of one element | ``maxAttributesPerElement`` (1,000) | ``StartTagScanner``, before libxml2 parses the tag |
/// | element nesting depth | 257 elements | libxml2 (`Excessive depth in document: 256`, counted below the root) |
/// | one text node, one attribute value | 10,000,000 bytes | libxml2 (`xmlSAX2Characters: huge text node`, `AttValue length too long`) |
/// | one name | 50,000 bytes | libxml2 |
/// | entity expansion | libxml2's amplification limits; entities are never substituted | libxml2 |
///
/// ```swift
/// XMLLimits.maxAttributesPerElement   // 1000
/// ```
public enum XMLLimits {
    /// The most attributes one element may carry. libxml2 (2.9) checks each new attribute
    /// against every earlier one of its element, so an element with 200,000 attributes (2.3 MB)
    /// takes it about a minute; real sidecars carry a few dozen (darktable's: 26).
    public static let maxAttributesPerElement = 1_000
    /// libxml2's deepest element nesting without `XML_PARSE_HUGE`: the root and 256 levels
    /// below it (its message says 256).
    public static let maxDepth = 257
    /// libxml2's longest text node or attribute value without `XML_PARSE_HUGE`, in bytes.
    public static let maxTextBytes = 10_000_000
}

/// Counts the attributes of every start tag in raw XML bytes as they stream past, so an
/// element with too many is refused before libxml2 parses it (its attribute handling is
/// quadratic in the count).
///
/// A byte-level state machine over ASCII-compatible encodings: it follows start tags (counting
/// each `=` outside a quoted value), end tags, comments, CDATA sections, processing
/// instructions and declarations (a DOCTYPE's internal subset included), so markup inside
/// those is not counted. A `<` inside a start tag starts a new tag: XML forbids `<` in an
/// attribute value, so no crafted value can hide a tag from the count. It errs only towards
/// counting: a `=` it counts is never one libxml2 skips.
///
/// ```swift
/// var scanner = StartTagScanner(limit: 1_000)
/// if let refusal = scanner.scan(chunk) { print(refusal.line, refusal.element) }
/// ```
public struct StartTagScanner: Sendable {
    /// An element with more attributes than the limit: where its tag starts, and its name.
    public struct Refusal: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var element: String
    }

    private enum State: Sendable {
        case text
        /// Just after `<`.
        case open
        /// Inside a start tag: its name still being read, and the quote of an open value.
        case startTag(quote: UInt8)
        /// After `<!`: `-` and `[` decide between a comment, CDATA and a declaration.
        case bang(seen: Int)
        /// Up to `>`: an end tag.
        case endTag
        /// Up to `-->`, `]]>` or `?>`: how many bytes of the terminator are matched so far.
        case comment(matched: Int), cdata(matched: Int), instruction(matched: Int)
        /// A declaration (`<!DOCTYPE …>`, `<!ENTITY …>`): quoted literals skipped, `[` opens the
        /// internal subset.
        case declaration(quote: UInt8)
    }

    public let limit: Int
    private var state = State.text
    /// Whether the current markup sits inside a DOCTYPE's internal subset (`[` … `]`).
    private var inSubset = false
    private var attributes = 0
    private var line = 1
    /// Bytes since the last line feed (the column of the next byte, less one).
    private var column = 0
    private var tagLine = 1, tagColumn = 1
    private var name: [UInt8] = []
    private var readingName = false

    public init(limit: Int = XMLLimits.maxAttributesPerElement) { self.limit = limit }

    /// Scans the next bytes of the document; the first element past the limit, or nil.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            // The common stretches in one step each; the byte that ends one goes through `step`.
            switch state {
            case .text where !inSubset:
                // Character data up to the next `<`: only its line feeds matter.
                let next = memchr(base + i, 0x3C, count - i).map { UnsafeRawPointer($0) - base } ?? count
                skip(UnsafeRawBufferPointer(start: base + i, count: next - i))
                i = next
            case let .startTag(quote) where !readingName:
                // Between attributes, or inside a quoted value: up to a byte that means something there.
                let start = i
                if quote == 0 {
                    while i < count, !Self.meansSomethingInTag(base.load(fromByteOffset: i, as: UInt8.self)) { i += 1 }
                } else {
                    while i < count {
                        let byte = base.load(fromByteOffset: i, as: UInt8.self)
                        if byte == quote || byte == 0x3C || byte == 0x0A { break }
                        i += 1
                    }
                }
                column += i - start
            case .endTag:
                // An end tag's name: only `>`, `<` and a line feed mean something.
                let start = i
                while i < count {
                    let byte = base.load(fromByteOffset: i, as: UInt8.self)
                    if byte == 0x3E || byte == 0x3C || byte == 0x0A { break }
                    i += 1
                }
                column += i - start
            default:
                break
            }
            if i == count { break }
            let byte = bytes[i]
            i += 1
            if byte == 0x0A {
                line += 1
                column = 0
            } else {
                column += 1
            }
            if let refusal = step(byte) { return refusal }
        }
        return nil
    }

    /// Moves the position past `text`, which holds no markup.
    private mutating func skip(_ text: UnsafeRawBufferPointer) {
        guard var start = text.baseAddress else { return }
        let end = start + text.count
        while let feed = memchr(start, 0x0A, end - start) {
            line += 1
            start = UnsafeRawPointer(feed) + 1
            column = 0
        }
        column += end - start
    }

    private mutating func step(_ byte: UInt8) -> Refusal? {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") { open() }
            else if inSubset && byte == UInt8(ascii: "]") { state = .declaration(quote: 0); inSubset = false }
        case .open:
            switch byte {
            case UInt8(ascii: "!"): state = .bang(seen: 0)
            case UInt8(ascii: "?"): state = .instruction(matched: 0)
            case UInt8(ascii: "/"): state = .endTag
            default:
                state = .startTag(quote: 0)
                attributes = 0
                name.removeAll(keepingCapacity: true)   // no allocation per element
                readingName = true
                return startTag(byte, quote: 0)
            }
        case let .startTag(quote):
            return startTag(byte, quote: quote)
        case let .bang(seen):
            if byte == UInt8(ascii: "-") {
                state = seen == 1 ? .comment(matched: 0) : .bang(seen: 1)
            } else if byte == UInt8(ascii: "[") && seen == 0 {
                state = .cdata(matched: 0)
            } else {
                state = .declaration(quote: 0)
                return step(byte)
            }
        case .endTag:
            if byte == UInt8(ascii: ">") { closeMarkup() } else if byte == UInt8(ascii: "<") { open() }
        case let .comment(matched):
            state = .comment(matched: Self.match(byte, matched, "-->")) 
            if case .comment(3) = state { closeMarkup() }
        case let .cdata(matched):
            state = .cdata(matched: Self.match(byte, matched, "]]>"))
            if case .cdata(3) = state { closeMarkup() }
        case let .instruction(matched):
            state = .instruction(matched: Self.match(byte, matched, "?>"))
            if case .instruction(2) = state { closeMarkup() }
        case let .declaration(quote):
            if quote != 0 {
                if byte == quote { state = .declaration(quote: 0) }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .declaration(quote: byte)
            } else if byte == UInt8(ascii: "[") && !inSubset {
                inSubset = true
                state = .text
            } else if byte == UInt8(ascii: ">") {
                closeMarkup()
            } else if byte == UInt8(ascii: "<") {
                open()
            }
        }
        return nil
    }

    /// One byte inside a start tag: `=` outside a quoted value counts an attribute.
    private mutating func startTag(_ byte: UInt8, quote: UInt8) -> Refusal? {
        if quote != 0 {
            if byte == quote { state = .startTag(quote: 0) } else if byte == UInt8(ascii: "<") { open() }
            return nil
        }
        if readingName {
            if Self.endsName(byte) { readingName = false } else if name.count < 64 { name.append(byte) }
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .startTag(quote: byte)
        case UInt8(ascii: "="):
            attributes += 1
            if attributes > limit {
                return Refusal(line: tagLine, column: tagColumn, element: String(decoding: name, as: UTF8.self))
            }
        case UInt8(ascii: ">"): closeMarkup()
        case UInt8(ascii: "<"): open()
        default: break
        }
        return nil
    }

    /// A `<` (at the column just counted) opens markup.
    private mutating func open() {
        state = .open
        tagLine = line
        tagColumn = column
    }

    /// Markup ended: back to text (the internal subset's, when inside one).
    private mutating func closeMarkup() { state = .text }

    /// `"`, `'`, `=`, `>`, `<` and a line feed: the bytes of a start tag's unquoted part that
    /// change the state or the position.
    @inline(__always)
    private static func meansSomethingInTag(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x27 || byte == 0x3D || byte == 0x3E || byte == 0x3C || byte == 0x0A
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "=")
    }

    /// How much of `terminator` is matched after `byte`, given `matched` bytes before it.
    private static func match(_ byte: UInt8, _ matched: Int, _ terminator: StaticString) -> Int {
        let bytes = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        if byte == bytes[matched] { return matched + 1 }
        // `--->` and `]]]>`: a repeated first byte keeps the match at one.
        return byte == bytes[0] ? (matched > 0 && bytes[matched - 1] == byte ? matched : 1) : 0
    }
}
