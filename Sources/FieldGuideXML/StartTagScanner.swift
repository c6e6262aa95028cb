#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Line feeds are counted a chunk at a time, with `memchr`, and a tag's line and column
    /// worked out only when its chunk ends or it is refused: `line` is the line of the byte at
    /// `counted` (in the current chunk), `lineStart` the offset of that line's first byte;
    /// offsets count from the document's first byte.
    private var line = 1
    private var lineStart = 0
    /// The offset of the current chunk's first byte, how far into it line feeds are counted,
    /// and where in it the current markup's `<` is while its position is not yet worked out.
    private var chunkOffset = 0
    private var counted = 0
    private var pendingTag: Int?
    private var tagLine = 1, tagColumn = 1
    private var name: [UInt8] = []
    private var readingName = false
    /// Whether runs of tags too short to pass the limit are skipped to the next `<`
    /// (`skipShortTags`); only tests turn it off, to compare.
    var skipsShortTags = true
    /// Start tags seen so far, in document order: the next one's index.
    private(set) var startTags = 0
    /// The lines of start tags (index, line of their `<`) in chunks that may reach line 65,535,
    /// where libxml2 (2.9) stops numbering elements: `takeLine(ofStartTag:)` gives them to the
    /// reader, which asks as it passes each element, so only the tags scanned ahead of it wait.
    private var tagLines: [(index: Int, line: Int)] = []
    private var tagLinesHead = 0
    /// Whether this chunk's start tags have their lines kept (`tagLines`).
    private var recordsLines = false
    /// A start tag opened by `step` (which has no chunk address to place it with).
    private var openedStartTag = false
    /// From this line on a chunk's start tags have their lines kept: a few thousand lines below
    /// libxml2's last exact number, for a tag spread over lines and chunks.
    static let recordingLine = 60_000

    public init(limit: Int = XMLLimits.maxAttributesPerElement) { self.limit = limit }

    /// Scans the next bytes of the document; the first element past the limit, or nil.
    ///
    /// The common stretches (character data, an element's name, between attributes, a quoted
    /// value, an end tag) go in tight loops over the bytes, each stopping only at a byte that
    /// means something there, and the common bytes that end them (`<`, `>`, a quote, `=`, white
    /// space after a name) are taken right there; the rest, and every byte of the rarer markup
    /// (comments, CDATA, declarations), goes through `step`. This runs over every byte of
    /// every file before libxml2 sees it, so it is kept to a few instructions a byte.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        guard let raw = bytes.baseAddress else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        counted = 0
        recordsLines = line + count >= Self.recordingLine
        defer {
            placeTag(base)
            countLines(base, upTo: count)
            chunkOffset += count
        }
        var i = 0
        while i < count {
            switch state {
            case .text where !inSubset:
                // Character data up to the next `<`, which opens markup.
                guard let next = memchr(base + i, 0x3C, count - i) else { return nil }
                i = UnsafePointer<UInt8>(next.assumingMemoryBound(to: UInt8.self)) - base
                open(at: i)
                if skipsShortTags { i = skipShortTags(base, from: i, count: count) }
                i += 1
                continue
            case .open:
                let byte = base[i]
                if byte == UInt8(ascii: "/") {
                    state = .endTag
                    i += 1
                    continue
                }
                if byte != UInt8(ascii: "!") && byte != UInt8(ascii: "?") && !Self.stopsName(byte) {
                    // A start tag: its name's loop takes this byte.
                    noteStartTag(base)
                    state = .startTag(quote: 0)
                    attributes = 0
                    name.removeAll(keepingCapacity: true)   // no allocation per element
                    readingName = true
                    continue
                }
            case .startTag(quote: 0) where readingName:
                // The element's name, kept in one piece (its first 64 bytes, for a refusal's message).
                let start = i
                while i < count, !Self.stopsName(base[i]) { i += 1 }
                let room = 64 - name.count
                if room > 0 { name.append(contentsOf: UnsafeBufferPointer(start: base + start, count: min(room, i - start))) }
                if i < count, Self.isSpace(base[i]) || base[i] == UInt8(ascii: ">") {
                    readingName = false
                    if base[i] == UInt8(ascii: ">") { state = .text }
                    i += 1
                    continue
                }
            case .startTag(quote: 0):
                // Between attributes: up to a quote, `=`, `>` or `<`.
                while i < count, !Self.meansSomethingInTag(base[i]) { i += 1 }
                if i < count {
                    let byte = base[i]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        state = .startTag(quote: byte)
                    } else if byte == UInt8(ascii: ">") {
                        state = .text
                    } else if byte == UInt8(ascii: "=") {
                        attributes += 1
                        if attributes > limit { return refusal(base) }
                    } else {
                        break   // `<`: through `step`
                    }
                    i += 1
                    continue
                }
            case let .startTag(quote):
                // A quoted value: up to its quote, or a `<` (which XML forbids there).
                while i < count, base[i] != quote, base[i] != 0x3C { i += 1 }
                if i < count, base[i] == quote {
                    state = .startTag(quote: 0)
                    i += 1
                    continue
                }
            case .endTag:
                while i < count, base[i] != 0x3E, base[i] != 0x3C { i += 1 }
                if i < count, base[i] == 0x3E {
                    state = .text
                    i += 1
                    continue
                }
            default:
                break
            }
            if i == count { break }
            let byte = base[i]
            i += 1
            if step(byte, at: i - 1) { return refusal(base) }
            if openedStartTag {
                openedStartTag = false
                noteStartTag(base)
            }
        }
        return nil
    }

    /// The markup opened last (its `<` pending in this chunk, or placed at the last one's end) is
    /// a start tag: counted, and its line kept when this chunk may reach line 65,535.
    private mutating func noteStartTag(_ base: UnsafePointer<UInt8>) {
        startTags += 1
        guard recordsLines else { return }
        placeTag(base)
        tagLines.append((startTags - 1, tagLine))
    }

    /// The line of the `<` of start tag `index` (0 for the document's first), when its chunk
    /// had lines kept; the lines of earlier tags are dropped (ask in document order).
    ///
    /// ```swift
    /// scanner.takeLine(ofStartTag: 70_000)   // 65_612, say, where libxml2 says 65535
    /// ```
    package mutating func takeLine(ofStartTag index: Int) -> Int? {
        while tagLinesHead < tagLines.count, tagLines[tagLinesHead].index < index { tagLinesHead += 1 }
        var found: Int?
        if tagLinesHead < tagLines.count, tagLines[tagLinesHead].index == index {
            found = tagLines[tagLinesHead].line
            tagLinesHead += 1
        }
        if tagLinesHead == tagLines.count {
            tagLines.removeAll(keepingCapacity: true)
            tagLinesHead = 0
        } else if tagLinesHead >= 4_096 {
            tagLines.removeFirst(tagLinesHead)
            tagLinesHead = 0
        }
        return found
    }

    /// Whether any start tag's line waits for `takeLine(ofStartTag:)` (a test per element).
    package var hasTagLines: Bool { tagLinesHead < tagLines.count }

    /// From the `<` at `index` (just opened), on to the last `<` of a run of start and end tags
    /// each too short to be refused: the index of that `<`, opened (state `.open`).
    ///
    /// A `<` inside a start tag (in a quoted value too) or an end tag always opens new markup, so
    /// every `=` counted for the markup opened at `index` lies before the next `<`: when that is at
    /// most `limit` bytes on, the markup cannot pass the limit whatever its bytes, and the bytes up
    /// to it need no look (the state there is `.open` in any case). Comments, CDATA, processing
    /// instructions and declarations (`<!`, `<?`) stop the run: `=` and `<` inside them mean
    /// something else. Exists for speed: it leaves the byte-by-byte walk to the rare long tag,
    /// where the scanner cost about 18 instructions a byte of a GPX file, a sixth of what libxml2
    /// spends on it. `skipsShortTags = false` turns it off (tests compare the two).
    private mutating func skipShortTags(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var at = index
        while at + 1 < count, base[at + 1] != UInt8(ascii: "!"), base[at + 1] != UInt8(ascii: "?"),
              let next = memchr(base + at + 1, 0x3C, min(count - at - 1, limit)) {
            // The markup at `at` is left behind: a start tag unless it is an end tag.
            if base[at + 1] != UInt8(ascii: "/") { noteStartTag(base) }
            at = UnsafePointer<UInt8>(next.assumingMemoryBound(to: UInt8.self)) - base
            open(at: at)
        }
        return at
    }

    /// The current start tag, refused (its position worked out first).
    private mutating func refusal(_ base: UnsafePointer<UInt8>) -> Refusal {
        placeTag(base)
        return Refusal(line: tagLine, column: tagColumn, element: String(decoding: name, as: UTF8.self))
    }

    /// Works out the line and column of the markup opened in this chunk, if not done yet.
    private mutating func placeTag(_ base: UnsafePointer<UInt8>) {
        guard let index = pendingTag else { return }
        pendingTag = nil
        countLines(base, upTo: index)
        tagLine = line
        tagColumn = chunkOffset + index - lineStart + 1
    }

    /// Counts the line feeds of the chunk from `counted` up to `end`.
    private mutating func countLines(_ base: UnsafePointer<UInt8>, upTo end: Int) {
        guard end > counted else { return }   // counted already (a start tag placed on its own)
        var start = counted
        while start < end, let feed = memchr(base + start, 0x0A, end - start) {
            start = UnsafePointer<UInt8>(feed.assumingMemoryBound(to: UInt8.self)) - base + 1
            line += 1
            lineStart = chunkOffset + start
        }
        counted = end
    }

    /// One byte, at `index` in the current chunk, that changes the state; true when it refuses
    /// the current start tag (one attribute too many).
    private mutating func step(_ byte: UInt8, at index: Int) -> Bool {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") { open(at: index) }
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
                openedStartTag = true
                return startTag(byte, quote: 0, at: index)
            }
        case let .startTag(quote):
            return startTag(byte, quote: quote, at: index)
        case let .bang(seen):
            if byte == UInt8(ascii: "-") {
                state = seen == 1 ? .comment(matched: 0) : .bang(seen: 1)
            } else if byte == UInt8(ascii: "[") && seen == 0 {
                state = .cdata(matched: 0)
            } else {
                state = .declaration(quote: 0)
                return step(byte, at: index)
            }
        case .endTag:
            if byte == UInt8(ascii: ">") { closeMarkup() } else if byte == UInt8(ascii: "<") { open(at: index) }
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
                open(at: index)
            }
        }
        return false
    }

    /// One byte inside a start tag: `=` outside a quoted value counts an attribute.
    private mutating func startTag(_ byte: UInt8, quote: UInt8, at index: Int) -> Bool {
        if quote != 0 {
            if byte == quote { state = .startTag(quote: 0) } else if byte == UInt8(ascii: "<") { open(at: index) }
            return false
        }
        if readingName {
            if Self.endsName(byte) { readingName = false } else if name.count < 64 { name.append(byte) }
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .startTag(quote: byte)
        case UInt8(ascii: "="):
            attributes += 1
            if attributes > limit { return true }
        case UInt8(ascii: ">"): closeMarkup()
        case UInt8(ascii: "<"): open(at: index)
        default: break
        }
        return false
    }

    /// A `<` at `index` in the current chunk opens markup (its position worked out later).
    private mutating func open(at index: Int) {
        state = .open
        pendingTag = index
    }

    /// Markup ended: back to text (the internal subset's, when inside one).
    private mutating func closeMarkup() { state = .text }

    /// `"`, `'`, `=`, `>` and `<`: the bytes of a start tag's unquoted part that change the state.
    @inline(__always)
    private static func meansSomethingInTag(_ byte: UInt8) -> Bool {
        // One bit test instead of five comparisons: every such byte is below 64.
        byte < 64 && (UInt64(1) << byte) & 0x7000_0084_0000_0000 != 0   // " ' = > <
    }

    /// The bytes that end the name of a start tag (`endsName`) or change the state inside it
    /// (`"`, `'`, `<`): where the name's fast path stops and `step` takes over.
    @inline(__always)
    private static func stopsName(_ byte: UInt8) -> Bool {
        byte < 64 && (UInt64(1) << byte) & 0x7000_8085_0000_2600 != 0   // space TAB LF CR / > = " ' <
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

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
