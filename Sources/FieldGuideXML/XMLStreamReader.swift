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

/// Streams an XML file through libxml2's xmlTextReader: constant memory in the file size.
///
/// Untrusted input is safe to read: no network access, no external DTD or entity loading, no
/// entity substitution, and libxml2's built-in limits refuse entity amplification
/// ("billion laughs"). The bytes reach libxml2 through a ``StartTagScanner``, which refuses an
/// element with more than ``XMLLimits/maxAttributesPerElement`` attributes before libxml2
/// parses its tag; ``XMLLimits`` lists every bound.
///
/// Errors are ``LocatedError``s at `file:line:column`: `.malformed` with libxml2's words for
/// XML that is not well formed, `.refused` for an entity reference, `.tooLarge` for an element
/// past a bound, `.unreadable` for a file that cannot be opened or read.
///
/// ```swift
/// let reader = try XMLStreamReader(path: "track.gpx")
/// while let event = try reader.next() {
///     if case let .start(name, attributes, line) = event, name == "wpt" { ... }
/// }
/// ```
public final class XMLStreamReader {
    public let file: String
    let reader: xmlTextReaderPtr
    private let errors = ErrorSink()
    /// The file's bytes on their way to libxml2, scanned for start tags past the bounds.
    private let input: ScannedInput
    /// The name of the element `read()` stopped on (start or end), in libxml2's dictionary.
    private(set) var currentName: UnsafePointer<xmlChar>?
    /// An empty element (`<a/>`) just returned as `.start`: its `.end` comes next.
    private var pendingEnd: UnsafePointer<xmlChar>?
    /// Whether the current `.end` was made for an empty element (libxml2 has moved past it).
    private var atMadeEnd = false
    /// Elements started so far: the index of the next (the scanner's start tags count alike).
    private var elements = 0
    /// The current element's line from the scanner when libxml2's stops at 65535.
    private var scannedLine: Int?

    public init(path: String, displayName: String? = nil) throws(LocatedError) {
        file = displayName ?? path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw LocatedError(.unreadable, file: file, message: "cannot open for reading: \(String(cString: strerror(errno)))")
        }
        input = ScannedInput(descriptor: descriptor)
        // libxml2 calls `closeScannedInput` when it frees the reader, or here when it fails.
        guard let reader = xmlReaderForIO(readScannedInput, closeScannedInput, Unmanaged.passUnretained(input).toOpaque(),
                                          path, nil, fieldguide_xml_safe_options()) else {
            throw input.failure(file: file) ?? LocatedError(.unreadable, file: file, message: "cannot open for reading")
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(reader, collectError, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit { xmlFreeTextReader(reader) }

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
    /// gives `.start`, then `.end`.
    package func read() throws(LocatedError) -> XMLNodeKind? {
        if let name = pendingEnd {
            pendingEnd = nil
            currentName = name
            atMadeEnd = true
            return .end
        }
        atMadeEnd = false
        while true {
            let status = xmlTextReaderRead(reader)
            // Two flags, not the optional failures themselves: this runs per node, and copying
            // an optional (line, column, message) out to test it retained and released a string.
            if input.failed || errors.failed || status <= 0 { return try finish(status) }
            guard let node = xmlTextReaderCurrentNode(reader) else { return try other() }
            // The node's own fields, read in Swift where they decide alone: each libxml2 call
            // this saves (`xmlIsBlankNode`, `xmlTextReaderConstName`) cost about as much as the
            // test itself, on every node of a file (2% of reading a property list, by callgrind).
            switch node.pointee.type {
            case XML_TEXT_NODE:
                // A text node straight from the node: the reader's own `xmlTextReaderNodeType` walks
                // every ancestor (their `xml:space`) for a text node of white space alone, and such
                // nodes are skipped whichever type it would give.
                if XMLNodeFields.isBlank(node.pointee.content) { continue }
                return .text
            case XML_ELEMENT_NODE:
                // Start or end is the reader's own state, not the node's: asked of it.
                let isEnd = xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
                currentName = XMLNodeFields.qualifiedName(node) ?? xmlTextReaderConstName(reader)
                if isEnd { return .end }
                noteElement(node)
                if node.pointee.children == nil, xmlTextReaderIsEmptyElement(reader) == 1 { pendingEnd = currentName }
                return .start
            default:
                if let kind = try other() { return kind }
            }
        }
    }

    /// An element starts: its index counted, and its line taken from the scanner when libxml2's
    /// is capped (65535: libxml2 2.9 keeps an element's line in 16 bits, and `xmlGetLineNo`
    /// finds no better one once the reader has freed the nodes around it).
    @inline(__always)
    private func noteElement(_ node: xmlNodePtr) {
        scannedLine = nil
        if input.scanner.hasTagLines {
            let line = input.scanner.takeLine(ofStartTag: elements)
            if node.pointee.line == 65535 { scannedLine = line }
        }
        elements += 1
    }

    /// `read()` after `xmlTextReaderRead` gave `status`, when the input was refused or libxml2
    /// reported an error, or the document ended (`status` 0) or failed (below 0).
    private func finish(_ status: Int32) throws(LocatedError) -> XMLNodeKind? {
        // The scanner's refusal first: libxml2 only saw the input end early.
        if let failure = input.failure(file: file) { throw failure }
        if let error = errors.first { throw LocatedError(.malformed, file: file, line: error.line, column: error.column, message: error.message) }
        if status == 0 { return nil }
        throw LocatedError(.malformed, file: file, line: Int(xmlTextReaderGetParserLineNumber(reader)),
                           column: Int(xmlTextReaderGetParserColumnNumber(reader)), message: "malformed XML")
    }

    /// The node `read()` stopped on when it is neither an element nor a text node: CDATA is text,
    /// an entity reference is refused, anything else (nil) is passed over.
    private func other() throws(LocatedError) -> XMLNodeKind? {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            currentName = xmlTextReaderConstName(reader)
            if xmlTextReaderIsEmptyElement(reader) == 1 { pendingEnd = currentName }
            return .start
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            currentName = xmlTextReaderConstName(reader)
            return .end
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            return .text
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            // The reference's own line when libxml2 kept it (the parser may have read ahead).
            let nodeLine = xmlTextReaderCurrentNode(reader).map { Int(xmlGetLineNo($0)) } ?? 0
            throw LocatedError(.refused, file: file, line: nodeLine > 0 ? nodeLine : Int(xmlTextReaderGetParserLineNumber(reader)),
                               column: Int(xmlTextReaderGetParserColumnNumber(reader)),
                               message: "entity references are not expanded; refusing \(string(xmlTextReaderConstName(reader)))")
        default:
            return nil
        }
    }

    /// The qualified name of the element `read()` stopped on (`.start` or `.end`).
    package var name: XMLName { XMLName(currentName) }

    /// The same, as a `String`.
    package var nameString: String { string(currentName) }

    /// `text` in this reader's dictionary: the ``XMLName`` every element or attribute named
    /// `text` without a prefix has (and every `localName` and `namespace` equal to `text`), so
    /// names compare as addresses. A prefixed name (`g:trkpt`) is made apart from the
    /// dictionary's plain entries: compare its `namespace` and `localName` instead.
    package func intern(_ text: String) -> XMLName { XMLName(xmlTextReaderConstString(reader, text)) }

    /// The line of the element `read()` stopped on at `.start` (the node's own line: the parser
    /// itself may have read ahead; past line 65,535, where libxml2 stops counting, the line of
    /// its `<` as the scanner counted it).
    package var line: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return 0 }
        // `xmlGetLineNo` gives the node's own line field unless it is 65535 (libxml2's cap, when it
        // looks at neighbouring nodes): read here without the call, the same number.
        if node.pointee.line != 65535 { return Int(node.pointee.line) }
        return scannedLine ?? Int(xmlGetLineNo(node))
    }

    /// The bytes (UTF-8) of the text node `read()` stopped on at `.text`, valid until the next call.
    package var text: UnsafeBufferPointer<UInt8> {
        guard let value = xmlTextReaderConstValue(reader) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: value, count: strlen(value))
    }

    /// The same, as a `String`.
    package var textString: String { string(xmlTextReaderConstValue(reader)) }

    /// The value of the current element's attribute with this qualified name (at `.start`).
    package func attribute(_ wanted: XMLName) -> String? {
        guard !atMadeEnd, xmlTextReaderHasAttributes(reader) == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(reader) }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if XMLName(xmlTextReaderConstName(reader)) == wanted { return string(xmlTextReaderConstValue(reader)) }
        }
        return nil
    }

    /// Calls `body` with the qualified name and the value's bytes (UTF-8) of each attribute of the
    /// current element, in document order (at `.start`), in one pass over them: what a reader
    /// wanting several attributes per element uses instead of `attribute(_:)` for each. The
    /// bytes are valid only inside `body` (libxml2 may reuse its buffer for the next value).
    package func forEachAttribute(_ body: (XMLName, UnsafeBufferPointer<UInt8>) -> Void) {
        guard !atMadeEnd else { return }
        // Straight from the element's attribute list when it holds what the reader's own calls
        // would give there (no namespace declarations, which they list first; unprefixed names;
        // each value one text node): moving the reader to each attribute and back cost more
        // than the rest of a GPX point's attributes.
        if let node = xmlTextReaderCurrentNode(reader), node.pointee.type == XML_ELEMENT_NODE, node.pointee.nsDef == nil,
           XMLNodeFields.plainAttributes(node.pointee.properties) {
            var attribute = node.pointee.properties
            while let current = attribute {
                let value = current.pointee.children.pointee.content
                body(XMLName(current.pointee.name), UnsafeBufferPointer(start: value, count: value.map { strlen($0) } ?? 0))
                attribute = current.pointee.next
            }
            return
        }
        guard xmlTextReaderHasAttributes(reader) == 1 else { return }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            let value = xmlTextReaderConstValue(reader)
            body(XMLName(xmlTextReaderConstName(reader)), UnsafeBufferPointer(start: value, count: value.map { strlen($0) } ?? 0))
        }
        xmlTextReaderMoveToElement(reader)
    }

    /// Every attribute of the current element, in document order (at `.start`).
    package var attributes: [XMLAttribute] {
        guard !atMadeEnd, xmlTextReaderHasAttributes(reader) == 1 else { return [] }
        var attributes: [XMLAttribute] = []
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            attributes.append(XMLAttribute(name: string(xmlTextReaderConstName(reader)), value: string(xmlTextReaderConstValue(reader))))
        }
        xmlTextReaderMoveToElement(reader)
        return attributes
    }

    /// The local name (`GPSLatitude` of `exif:GPSLatitude`) of the element at `.start`.
    package var localName: XMLName { atMadeEnd ? .none : XMLName(xmlTextReaderConstLocalName(reader)) }

    /// The namespace URI of the element at `.start`, in the dictionary (compare it with
    /// `intern(uri)`); `.none` when it has none.
    package var namespace: XMLName { atMadeEnd ? .none : XMLName(xmlTextReaderConstNamespaceUri(reader)) }

    /// The namespace URI of the element the last `.start` event opened (`http://ns.adobe.com/exif/1.0/`
    /// for `exif:GPSLatitude`), or nil when it has none. Valid until the next call to `next()`.
    public var elementNamespaceURI: String? {
        xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) }
    }

    /// The namespace URI of an attribute (by its qualified name, as in `XMLAttribute.name`) of the
    /// element the last `.start` event opened; nil for an unprefixed attribute or one not there.
    /// Valid until the next call to `next()`.
    public func attributeNamespaceURI(_ qualifiedName: String) -> String? {
        guard xmlTextReaderMoveToAttribute(reader, qualifiedName) == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(reader) }
        return xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) }
    }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

/// The kind of node ``XMLStreamReader/read()`` stopped on.
package enum XMLNodeKind: Sendable, Equatable {
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

/// A file's descriptor read for libxml2 (`xmlReaderForIO`), every chunk scanned by a
/// `StartTagScanner` before libxml2 gets it: an element past the bound ends the input there
/// (the read fails), and the reader throws the scanner's refusal instead of libxml2's words.
private final class ScannedInput {
    var descriptor: Int32
    /// Used by one thread at a time (libxml2 reads on the reader's thread), and asked of per
    /// element past line 60,000 (`takeLine`): unchecked, or each access costs a runtime
    /// exclusivity check, about 50 instructions an element.
    @exclusivity(unchecked) var scanner = StartTagScanner()
    var refusal: StartTagScanner.Refusal? { didSet { failed = true } }
    /// `errno` of a failed read.
    var readError: Int32? { didSet { failed = true } }
    /// Whether `refusal` or `readError` is set: what the reader tests per node.
    private(set) var failed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The refusal or read error that ended the input, as the reader throws it.
    func failure(file: String) -> LocatedError? {
        if let refusal {
            return LocatedError(.tooLarge, file: file, line: refusal.line, column: refusal.column,
                                message: "expected at most \(grouped(XMLLimits.maxAttributesPerElement)) attributes on one element, found more on <\(refusal.element)>; refused before parsing it")
        }
        if let readError { return LocatedError(.unreadable, file: file, message: "read failed: \(String(cString: strerror(readError)))") }
        return nil
    }

    func fill(_ buffer: UnsafeMutablePointer<CChar>, _ length: Int32) -> Int32 {
        if refusal != nil || readError != nil { return -1 }
        var count: Int
        repeat { count = read(descriptor, buffer, Int(length)) } while count < 0 && errno == EINTR
        if count < 0 {
            readError = errno
            return -1
        }
        if let refused = scanner.scan(UnsafeRawBufferPointer(start: buffer, count: count)) {
            refusal = refused
            return -1
        }
        return Int32(count)
    }

    func closeDescriptor() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }
}

/// `1000` → `1,000`.
private func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    return String(digits.enumerated().flatMap { i, d in i > 0 && (digits.count - i) % 3 == 0 ? [",", d] : [d] })
}

private func readScannedInput(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32) -> Int32 {
    guard let context, let buffer else { return -1 }
    return Unmanaged<ScannedInput>.fromOpaque(context).takeUnretainedValue().fill(buffer, length)
}

private func closeScannedInput(_ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return -1 }
    Unmanaged<ScannedInput>.fromOpaque(context).takeUnretainedValue().closeDescriptor()
    return 0
}

/// Collects libxml2's first error with its position.
private final class ErrorSink {
    var first: (line: Int, column: Int, message: String)? { didSet { failed = true } }
    /// Whether `first` is set: what the reader tests per node.
    private(set) var failed = false
}

private func collectError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
    guard sink.first == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    let message = error.pointee.message.map { String(cString: $0) }?.trimmingTrailingNewline() ?? "XML error"
    sink.first = (Int(error.pointee.line), Int(error.pointee.int2), message)
}

extension String {
    fileprivate func trimmingTrailingNewline() -> String {
        var s = self
        while s.last == "\n" { s.removeLast() }
        return s
    }
}
