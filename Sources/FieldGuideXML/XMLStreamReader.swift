internal import CLibXML2
import FieldGuideDiagnostics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One event of a streamed XML document.
public enum XMLEvent: Sendable, Equatable {
    /// An element opens: its qualified name (`exif:GPSLatitude`), attributes, and where.
    case start(name: String, attributes: [XMLAttribute], line: Int)
    /// An element closes (also sent right after `start` for an empty element `<a/>`).
    case end(name: String)
    /// Character data or CDATA inside the current element.
    case text(String)
}

/// An attribute as written: qualified name and value.
public struct XMLAttribute: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Streams an XML file through libxml2's SAX2 push parser: constant memory in the file size.
///
/// Untrusted input is safe to read: no network access, no external DTD or entity loading, no
/// entity substitution (a reference to a declared entity, in text or an attribute value, is
/// refused before libxml2 reads its replacement text, so no "billion laughs" amplifies). The
/// bytes reach libxml2 through a ``StartTagScanner``, which refuses an element
/// with more than ``XMLLimits/maxAttributesPerElement`` attributes before libxml2 parses its
/// tag; ``XMLLimits`` lists every bound.
///
/// Errors are ``LocatedError``s at `file:line:column`: `.malformed` with libxml2's words for
/// XML that is not well formed, `.refused` for an entity reference, `.tooLarge` for an element
/// past a bound, `.unreadable` for a file that cannot be opened or read. The nodes before an
/// error are read first.
///
/// ```swift
/// let reader = try XMLStreamReader(path: "track.gpx")
/// while let event = try reader.next() {
///     if case let .start(name, attributes, line) = event, name == "wpt" { ... }
/// }
/// ```
public final class XMLStreamReader {
    public let file: String
    /// libxml2's parser, fed a chunk of the file at a time (`refill`); its SAX callbacks fill
    /// `queue`, which `read()` then walks. (Why not libxml2's xmlTextReader, which reads alike:
    /// it builds and frees a tree node per node on top of these same callbacks, and its calls
    /// per node, interleaved with ours, cost as much again: SAX2 alone parses the 100 MB GPX in
    /// a third of `xmllint --stream`'s time.)
    private let parser: xmlParserCtxtPtr
    private let queue: SAXNodeQueue
    /// The file's bytes on their way to libxml2, scanned for start tags past the bounds.
    private let input: ScannedInput
    /// The queue's node `read()` stopped on, the next one to look at, and how many may be handed
    /// out (`deliverable`, worked out once a chunk).
    private var current = SAXNode(kind: .end, line: 0, start: 0, count: 0, name: nil, localName: nil, namespace: nil)
    private var upcoming = 0
    private var available = 0
    /// Whether libxml2 has been told the document ended.
    private var ended = false

    public init(path: String, displayName: String? = nil) throws(LocatedError) {
        file = displayName ?? path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw LocatedError(.unreadable, file: file, message: "cannot open for reading: \(String(cString: strerror(errno)))")
        }
        input = ScannedInput(descriptor: descriptor)
        let first = input.fill()
        if let failure = input.failure(file: file) {
            input.closeDescriptor()
            throw failure
        }
        // Its first four bytes (or none) make the parser, which reads the encoding from them, as
        // libxml2's reader makes it; the rest of the chunk is parsed on the first `read()`.
        var handler = SAXHandler.make()
        let head = first >= 4 ? 4 : 0
        guard let parser = xmlCreatePushParserCtxt(&handler, nil, input.buffer, Int32(head), path) else {
            input.closeDescriptor()
            throw LocatedError(.unreadable, file: file, message: "cannot open for reading")
        }
        xmlCtxtUseOptions(parser, fieldguide_xml_safe_options())
        fieldguide_xml_quiet_generic_errors()
        self.parser = parser
        queue = SAXNodeQueue(input: input, dictionary: parser.pointee.dict)
        parser.pointee._private = Unmanaged.passUnretained(queue).toOpaque()
        input.pending = head..<first
    }

    deinit {
        if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(parser)
        input.closeDescriptor()
    }

    /// The next event, or nil at the end of the document.
    public func next() throws(LocatedError) -> XMLEvent? {
        try read().map(event)
    }

    /// The node `read()` stopped on (of kind `node`) as an event, every part made a Swift value.
    package func event(_ node: XMLNodeKind) -> XMLEvent {
        switch node {
        case .start: .start(name: nameString, attributes: attributes, line: line)
        case .end: .end(name: nameString)
        case .text: .text(textString)
        }
    }

    /// Moves to the next element start, element end or text node (nil at the end of the
    /// document), without making any Swift value: the node's name, text and attributes are
    /// read through the properties below, valid until the next call. An empty element (`<a/>`)
    /// gives `.start`, then `.end`; text of white space alone is skipped.
    package func read() throws(LocatedError) -> XMLNodeKind? {
        while true {
            while upcoming < available {
                let node = queue.nodes[upcoming]
                upcoming += 1
                if node.kind == .text, queue.isBlank(node) { continue }
                current = node
                return node.kind
            }
            if let failure = input.failure(file: file) { throw failure }
            if let failure = queue.failure {
                throw LocatedError(failure.kind, file: file, line: failure.line, column: failure.column, message: failure.message)
            }
            if ended {
                guard parser.pointee.wellFormed == 0 else { return nil }
                throw LocatedError(.malformed, file: file, line: Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(parser))),
                                   column: Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer(parser))), message: "malformed XML")
            }
            refill()
            available = deliverable
        }
    }

    /// How many of the queue's nodes may be handed out: those before a failure; else all but
    /// a text node still open at the chunk's end (the next chunk may add to it).
    private var deliverable: Int {
        if input.failed { return 0 }
        if queue.failed { return queue.nodesBeforeFailure }
        return queue.textOpen && !ended ? queue.nodes.count - 1 : queue.nodes.count
    }

    /// Parses the next chunk of the file (the first one's rest, first), or ends the document.
    private func refill() {
        queue.reuse()
        upcoming = 0
        if let pending = input.pending {
            input.pending = nil
            parse(input.buffer + pending.lowerBound, pending.count, terminate: false)
            return
        }
        let count = input.fill()
        if input.failed { return }
        if count > 0 {
            parse(input.buffer, count, terminate: false)
        } else {
            queue.ending = true
            parse(nil, 0, terminate: true)
            ended = true
        }
    }

    /// One `xmlParseChunk`. An error libxml2 raises with no parser to send it to (bytes not in
    /// the declared encoding) reaches `SAXHandler.outsideError`, the thread's structured
    /// handler for the call; libxml2 then stops the parser without marking the document
    /// malformed, so a stop with an error no callback reported fails here, where the parser is.
    private func parse(_ bytes: UnsafePointer<CChar>?, _ count: Int, terminate: Bool) {
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(queue).toOpaque(), SAXHandler.outsideError)
        let status = xmlParseChunk(parser, bytes, Int32(count), terminate ? 1 : 0)
        xmlSetStructuredErrorFunc(nil, nil)
        let stopped = parser.pointee.disableSAX != 0 || parser.pointee.instate == XML_PARSER_EOF || parser.pointee.wellFormed == 0
        guard status != 0, stopped, !queue.failed else { return }
        let context = UnsafeMutableRawPointer(parser)
        queue.fail(.malformed, line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)),
                   queue.outsideError.map { "malformed XML: \($0)" } ?? "malformed XML")
    }

    /// The qualified name of the element `read()` stopped on (`.start` or `.end`).
    package var name: XMLName { XMLName(current.name) }

    /// The same, as a `String`.
    package var nameString: String { string(current.name) }

    /// `text` in this reader's dictionary: the ``XMLName`` every element or attribute named
    /// `text` without a prefix has (and every `localName` and `namespace` equal to `text`), so
    /// names compare as addresses. A prefixed name (`g:trkpt`) is made apart from the
    /// dictionary's plain entries: compare its `namespace` and `localName` instead.
    package func intern(_ text: String) -> XMLName { XMLName(xmlDictLookup(parser.pointee.dict, text, -1)) }

    /// The line of the element `read()` stopped on at `.start`: the line of its `>` (past line
    /// 65,535, the line of its `<` as the scanner counted it, as libxml2's reader numbered them).
    package var line: Int { Int(current.line) }

    /// The bytes (UTF-8) of the text node `read()` stopped on at `.text`, valid until the next call.
    package var text: UnsafeBufferPointer<UInt8> {
        current.kind == .text ? queue.text(current) : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The same, as a `String`.
    package var textString: String { String(decoding: text, as: UTF8.self) }

    /// The attributes of the element at `.start` (none elsewhere), namespace declarations first.
    private var currentAttributes: UnsafeBufferPointer<SAXAttribute> {
        guard current.kind == .start else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: queue.attributes.base + Int(current.start), count: Int(current.count))
    }

    private func value(_ attribute: SAXAttribute) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: queue.bytes.base + Int(attribute.start), count: Int(attribute.count))
    }

    /// The value of the current element's attribute with this qualified name (at `.start`).
    package func attribute(_ wanted: XMLName) -> String? {
        for attribute in currentAttributes where XMLName(attribute.name) == wanted {
            return String(decoding: value(attribute), as: UTF8.self)
        }
        return nil
    }

    /// Calls `body` with the qualified name and the value's bytes (UTF-8) of each attribute of the
    /// current element, in document order (at `.start`; namespace declarations first), in one
    /// pass over them: what a reader wanting several attributes per element uses instead of
    /// `attribute(_:)` for each. The bytes are valid only inside `body`.
    package func forEachAttribute(_ body: (XMLName, UnsafeBufferPointer<UInt8>) -> Void) {
        for attribute in currentAttributes { body(XMLName(attribute.name), value(attribute)) }
    }

    /// Every attribute of the current element, in document order (at `.start`; namespace
    /// declarations first, named `xmlns` or `xmlns:prefix`).
    package var attributes: [XMLAttribute] {
        currentAttributes.map { XMLAttribute(name: string($0.name), value: String(decoding: value($0), as: UTF8.self)) }
    }

    /// The local name (`GPSLatitude` of `exif:GPSLatitude`) of the element at `.start`.
    package var localName: XMLName { XMLName(current.localName) }

    /// The namespace URI of the element at `.start`, in the dictionary (compare it with
    /// `intern(uri)`); `.none` when it has none.
    package var namespace: XMLName { XMLName(current.namespace) }

    /// The namespace URI of the element the last `.start` event opened (`http://ns.adobe.com/exif/1.0/`
    /// for `exif:GPSLatitude`), or nil when it has none. Valid until the next call to `next()`.
    public var elementNamespaceURI: String? {
        current.namespace.map { String(cString: $0) }
    }

    /// The namespace URI of an attribute (by its qualified name, as in `XMLAttribute.name`) of the
    /// element the last `.start` event opened; nil for an unprefixed attribute or one not there.
    /// Valid until the next call to `next()`.
    public func attributeNamespaceURI(_ qualifiedName: String) -> String? {
        for attribute in currentAttributes where string(attribute.name) == qualifiedName {
            return attribute.namespace.map { String(cString: $0) }
        }
        return nil
    }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

/// The kind of node ``XMLStreamReader/read()`` stopped on.
package enum XMLNodeKind: Sendable, Equatable, BitwiseCopyable {
    case start, end, text
}

/// A name as libxml2's dictionary holds it: one reader gives every occurrence of a name the
/// same address, so comparing two is comparing two pointers (no `String` is made per element).
/// Only names from the same reader compare; a prefixed name only with itself (see `intern`).
package struct XMLName: Hashable, @unchecked Sendable {
    @usableFromInline let address: UnsafeRawPointer?

    /// Inlinable: the readers compare a name or more on every node of a file.
    @inlinable package static func == (a: XMLName, b: XMLName) -> Bool { a.address == b.address }

    /// No name: what `namespace` gives for an element without a namespace.
    package static let none = XMLName(nil)

    init(_ pointer: UnsafePointer<xmlChar>?) { address = pointer.map(UnsafeRawPointer.init) }
}

/// A file's descriptor read a chunk at a time for libxml2, every chunk scanned by a
/// `StartTagScanner` before libxml2 gets it: an element past the bound ends the input there,
/// and the reader throws the scanner's refusal.
final class ScannedInput {
    var descriptor: Int32
    /// Used by one thread at a time, and asked of per element past line 60,000 (`takeLine`):
    /// unchecked, or each access costs a runtime exclusivity check, about 50 instructions an element.
    @exclusivity(unchecked) var scanner = StartTagScanner()
    var refusal: StartTagScanner.Refusal? { didSet { failed = true } }
    /// `errno` of a failed read.
    var readError: Int32? { didSet { failed = true } }
    /// Whether `refusal` or `readError` is set: what the reader tests per chunk.
    private(set) var failed = false
    /// The chunk read last (`fill`), and the part of it libxml2 has not had yet.
    let buffer: UnsafeMutablePointer<CChar>
    var pending: Range<Int>?
    /// The chunk size: libxml2 parses a chunk, then the reader walks its nodes. 64 KiB keeps a
    /// chunk's nodes in the second-level cache and libxml2's parser in the first between them.
    static let chunkSize = 1 << 16

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = ReadBuffer.allocate(byteCount: Self.chunkSize).baseAddress!.bindMemory(to: CChar.self, capacity: Self.chunkSize)
    }

    deinit { UnsafeMutableRawPointer(buffer).deallocate() }

    /// The refusal or read error that ended the input, as the reader throws it.
    func failure(file: String) -> LocatedError? {
        guard failed else { return nil }
        if let refusal {
            return LocatedError(.tooLarge, file: file, line: refusal.line, column: refusal.column,
                                message: "expected at most \(grouped(XMLLimits.maxAttributesPerElement)) attributes on one element, found more on <\(refusal.element)>; refused before parsing it")
        }
        if let readError { return LocatedError(.unreadable, file: file, message: "read failed: \(String(cString: strerror(readError)))") }
        return nil
    }

    /// Reads the next chunk into `buffer` and scans it: its length (0 at the end of the file);
    /// on a read error or a refusal, `failed` is set.
    func fill() -> Int {
        var count: Int
        repeat { count = read(descriptor, buffer, Self.chunkSize) } while count < 0 && errno == EINTR
        if count < 0 {
            readError = errno
            return 0
        }
        if let refused = scanner.scan(UnsafeRawBufferPointer(start: buffer, count: count)) { refusal = refused }
        return count
    }

    func closeDescriptor() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }
}

/// `1000` → `1,000`.
func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    return String(digits.enumerated().flatMap { i, d in i > 0 && (digits.count - i) % 3 == 0 ? [",", d] : [d] })
}

