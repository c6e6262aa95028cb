internal import CLibXML2
import FieldGuideDiagnostics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One node of the document as libxml2's SAX2 callbacks gave it: what `XMLStreamReader.read()`
/// stops on. Names are addresses in the parser's dictionary (they live as long as the parser);
/// text and attribute values are copied into the queue's bytes (libxml2's own buffers move).
struct SAXNode: BitwiseCopyable {
    var kind: XMLNodeKind
    /// The line libxml2 was on (for a start tag, the line of its `>`; past 65,535 the line of
    /// its `<` from the scanner, see `SAXNodeQueue.startLine`).
    var line: Int32
    /// Text: its bytes in `SAXNodeQueue.bytes`. Start: its attributes in `SAXNodeQueue.attributes`
    /// (namespace declarations first, as libxml2's reader listed them).
    var start: Int32
    var count: Int32
    /// The qualified name (`exif:GPSLatitude`), local name and namespace URI of an element.
    var name: UnsafePointer<xmlChar>?
    var localName: UnsafePointer<xmlChar>?
    var namespace: UnsafePointer<xmlChar>?
}

/// An attribute of a start node: qualified name and namespace URI in the dictionary, the value's
/// bytes in `SAXNodeQueue.bytes`.
struct SAXAttribute: BitwiseCopyable {
    var name: UnsafePointer<xmlChar>?
    var namespace: UnsafePointer<xmlChar>?
    var start: Int32
    var count: Int32
}

/// The nodes libxml2's SAX2 push parser reports while it parses one chunk of the file, kept
/// until `XMLStreamReader.read()` hands them out: the reader parses a chunk, then walks its
/// nodes. (libxml2's own xmlTextReader builds and frees a tree node per node for the same
/// walk; the callbacks here only append to three flat buffers, reused chunk after chunk, so
/// memory stays that of one chunk's nodes.)
///
/// Adjacent text (character data, references to the predefined entities, CDATA) is joined into
/// one text node, as the reader's tree joined it; a comment or processing instruction ends it.
final class SAXNodeQueue {
    /// Unchecked: the callbacks and the reader touch these on one thread, once per node, and a
    /// checked access costs a runtime exclusivity check each time.
    @exclusivity(unchecked) var nodes = FlatBuffer<SAXNode>(capacity: 4_096)
    @exclusivity(unchecked) var attributes = FlatBuffer<SAXAttribute>(capacity: 4_096)
    @exclusivity(unchecked) var bytes = FlatBuffer<UInt8>(capacity: 1 << 17)
    /// Whether the last node is text still open to more characters.
    @exclusivity(unchecked) var textOpen = false
    /// The first failure met while parsing, and how many nodes came before it (those are still
    /// handed out, then the failure is thrown).
    private(set) var failure: Failure? { didSet { failed = true } }
    private(set) var nodesBeforeFailure = 0
    /// Whether `failure` is set (tested without copying it out).
    private(set) var failed = false
    /// The first error libxml2 raised outside the parser's channel while it parsed a chunk
    /// (`SAXHandler.outsideError`): a byte not in the declared encoding, say.
    var outsideError: String?
    /// Elements started so far (the scanner's start tags count alike: `startLine`), and open now.
    private var elements = 0
    private var depth = 0
    /// The elements open now, outermost first (`depth` of them): their qualified names and start
    /// lines, for the error of a file that ends inside one (`endedInside`). A fixed buffer
    /// indexed by the depth: an array's append and remove cost 9% of a GPX's instructions.
    private let open = UnsafeMutablePointer<OpenElement>.allocate(capacity: XMLLimits.maxDepth)
    /// Set before libxml2 is told the document ended: its errors from then on are about the end.
    var ending = false
    let input: ScannedInput
    /// `http://www.w3.org/2000/xmlns/` in the dictionary: the namespace of a namespace declaration.
    private let xmlnsURI: UnsafePointer<xmlChar>?

    struct OpenElement {
        var name: UnsafePointer<xmlChar>?
        var line: Int32
    }

    struct Failure {
        var kind: LocatedError.Kind
        var line: Int
        var column: Int
        var message: String
    }

    init(input: ScannedInput, dictionary: OpaquePointer?) {
        self.input = input
        xmlnsURI = xmlDictLookup(dictionary, "http://www.w3.org/2000/xmlns/", -1)
    }

    deinit {
        nodes.deallocate()
        open.deallocate()
        attributes.deallocate()
        bytes.deallocate()
    }

    /// Records the first failure, after the nodes made so far.
    func fail(_ kind: LocatedError.Kind, line: Int, column: Int, _ message: String) {
        guard failure == nil else { return }
        closeText()   // what it may still drop is counted out before the failure
        failure = Failure(kind: kind, line: line, column: column, message: message)
        nodesBeforeFailure = nodes.count
    }

    /// Empties the queue for the next chunk, keeping an open text node (the chunk may have ended
    /// inside it) as the first node, its bytes first.
    func reuse() {
        if textOpen, nodes.count > 0 {
            var text = nodes[nodes.count - 1]
            bytes.moveToFront(from: Int(text.start), count: Int(text.count))
            text.start = 0
            nodes.removeAll()
            nodes.append(text)
        } else {
            nodes.removeAll()
            bytes.removeAll()
        }
        attributes.removeAll()
    }

    /// Ends the open text node, if any; one of white space alone is dropped right away (the reader
    /// skips it: most text between elements is a line feed and indentation).
    @inline(__always)
    func closeText() {
        guard textOpen else { return }
        textOpen = false
        let last = nodes[nodes.count - 1]
        if isBlank(last) {
            nodes.removeLast(1)
            bytes.removeLast(Int(last.count))
        }
    }

    /// An element starts: its node, and its attributes after its namespace declarations.
    @inline(__always)
    func start(_ parser: xmlParserCtxtPtr, local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
               namespaces: (count: Int, list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?),
               attributes given: (count: Int, list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?)) {
        closeText()
        depth += 1
        guard depth <= XMLLimits.maxDepth else { return refuseDepth(parser) }
        let name = prefix == nil ? local : xmlDictQLookup(parser.pointee.dict, prefix, local)
        let first = attributes.count
        if namespaces.count > 0, let list = namespaces.list { declare(list, namespaces.count, parser.pointee.dict) }
        if let list = given.list {
            // Five pointers an attribute: local name, prefix, namespace URI, value, value's end.
            for i in 0..<given.count {
                let a = list + 5 * i
                let qualified = a[1] == nil ? a[0] : xmlDictQLookup(parser.pointee.dict, a[1], a[0])
                var length = if let value = a[3], let end = a[4] { end - value } else { 0 }
                let value = appendBytes(a[3], count: length)
                if length > 0, memchr(bytes.base + Int(value), 0x26, length) != nil { length = decodeAmpersands(from: Int(value)) }
                attributes.append(SAXAttribute(name: qualified, namespace: a[2], start: value, count: Int32(truncatingIfNeeded: length)))
            }
        }
        let line = startLine(parser)
        open[depth - 1] = OpenElement(name: name, line: line)
        nodes.append(SAXNode(kind: .start, line: line, start: Int32(first), count: Int32(attributes.count - first),
                             name: name, localName: local, namespace: uri))
    }

    /// The value appended last (from `start` to the end of `bytes`) with each `&#38;` made `&`
    /// again: its new length. Without entity substitution libxml2's SAX2 parser hands out every
    /// `&` of an attribute value (written `&amp;` or `&#38;`) as `&#38;`, for its tree builder to
    /// decode; no other reference reaches here (the rest are refused at `getEntity`).
    private func decodeAmpersands(from start: Int) -> Int {
        let value = bytes.base + start, end = bytes.count - start
        var read = 0, written = 0
        while read < end {
            let isAmpersand = value[read] == 0x26 && read + 5 <= end && value[read + 1] == 0x23 && value[read + 2] == 0x33
                && value[read + 3] == 0x38 && value[read + 4] == 0x3B
            value[written] = value[read]
            written += 1
            read += isAmpersand ? 5 : 1
        }
        bytes.removeLast(end - written)
        return written
    }

    /// Namespace declarations as the reader listed them: `xmlns` or `xmlns:prefix`, the URI as
    /// value, in the xmlns namespace.
    private func declare(_ list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int, _ dictionary: OpaquePointer?) {
        for i in 0..<count {
            let prefix = list[2 * i], href = list[2 * i + 1]
            let name = prefix == nil ? xmlDictLookup(dictionary, "xmlns", -1) : xmlDictQLookup(dictionary, "xmlns", prefix)
            let length = href.map { strlen($0) } ?? 0
            let value = appendBytes(href, count: length)
            attributes.append(SAXAttribute(name: name, namespace: xmlnsURI, start: value, count: Int32(length)))
        }
    }

    /// The line of a start tag: libxml2's (the line of its `>`) below 65,535; from there on, where
    /// libxml2's reader kept no line, the line of its `<` as the scanner counted it, so every
    /// line past the cap is given the same way as before.
    @inline(__always)
    private func startLine(_ parser: xmlParserCtxtPtr) -> Int32 {
        var line = parser.pointee.input.pointee.line
        if input.scanner.hasTagLines {
            let scanned = input.scanner.takeLine(ofStartTag: elements)
            if line >= 65535, let scanned { line = Int32(truncatingIfNeeded: scanned) }
        }
        elements += 1
        return line
    }

    /// An element ends.
    @inline(__always)
    func end(_ parser: xmlParserCtxtPtr, local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) {
        closeText()
        depth -= 1
        let name = prefix == nil ? local : xmlDictQLookup(parser.pointee.dict, prefix, local)
        nodes.append(SAXNode(kind: .end, line: parser.pointee.input.pointee.line, start: 0, count: 0, name: name, localName: local, namespace: uri))
    }

    /// Characters: joined onto the open text node, or a new one. A node past
    /// ``XMLLimits/maxTextBytes`` stops the parser (the bound libxml2's tree builder kept).
    @inline(__always)
    func characters(_ parser: xmlParserCtxtPtr, _ text: UnsafePointer<xmlChar>?, _ count: Int) {
        if textOpen {
            let node = nodes.count - 1
            guard Int(nodes[node].count) + count <= XMLLimits.maxTextBytes else { return refuseHugeText(parser) }
            _ = appendBytes(text, count: count)
            nodes[node].count += Int32(count)
        } else {
            guard count <= XMLLimits.maxTextBytes else { return refuseHugeText(parser) }
            textOpen = true
            let start = appendBytes(text, count: count)
            nodes.append(SAXNode(kind: .text, line: parser.pointee.input.pointee.line, start: start, count: Int32(count),
                                 name: nil, localName: nil, namespace: nil))
        }
    }

    /// libxml2's error, in its words, except at the end of the input: libxml2 2.9 calls a file
    /// that ends inside an element (an export cut short) "Extra content at the end of the
    /// document"; that one says what was expected instead.
    func libxml2Error(code: Int32, line: Int, column: Int, _ message: String) {
        let endedEarly = ending && code == Int32(XML_ERR_DOCUMENT_END.rawValue)
        fail(.malformed, line: line, column: column, (endedEarly ? endedInside() : nil) ?? message)
    }

    /// What a file that ends before its root element closes lacked; nil once it has closed.
    private func endedInside() -> String? {
        guard (1...XMLLimits.maxDepth).contains(depth) else { return elements == 0 ? "expected a root element, found the end of the file" : nil }
        let innermost = open[depth - 1]
        let name = innermost.name.map { String(cString: $0) } ?? "?"
        return "expected </\(name)> to close the <\(name)> of line \(innermost.line), found the end of the file (cut short?)"
    }

    /// An element nested past ``XMLLimits/maxDepth``: the bound libxml2's tree builder kept
    /// (its words begin the message).
    private func refuseDepth(_ parser: xmlParserCtxtPtr) {
        fail(.malformed, line: Int(parser.pointee.input.pointee.line), column: Int(parser.pointee.input.pointee.col),
             "Excessive depth in document: expected elements nested at most \(XMLLimits.maxDepth) deep, found deeper")
        xmlStopParser(parser)
    }

    private func refuseHugeText(_ parser: xmlParserCtxtPtr) {
        fail(.malformed, line: Int(parser.pointee.input.pointee.line), column: Int(parser.pointee.input.pointee.col),
             "xmlSAX2Characters: huge text node: expected at most \(grouped(XMLLimits.maxTextBytes)) bytes of text in one node, found more")
        xmlStopParser(parser)
    }

    /// An entity reference other than the five predefined ones: refused where it starts (its `&`).
    func refuseEntity(_ parser: xmlParserCtxtPtr, _ name: UnsafePointer<xmlChar>?) {
        let text = name.map { String(cString: $0) } ?? ""
        // libxml2 has just read the `;`: its column (in characters) less the reference's.
        let column = Int(parser.pointee.input.pointee.col) - text.count - 2
        fail(.refused, line: Int(parser.pointee.input.pointee.line), column: max(column, 1),
             "entity references are not expanded; refusing &\(text);")
        parser.pointee.wellFormed = 0   // or libxml2 looks the entity up itself
        xmlStopParser(parser)
    }

    /// `count` bytes appended to `bytes`: where they start.
    @inline(__always)
    private func appendBytes(_ source: UnsafePointer<xmlChar>?, count: Int) -> Int32 {
        let start = Int32(truncatingIfNeeded: bytes.count)
        if let source, count > 0 { bytes.append(source, count: count) }
        return start
    }

    /// The bytes of text node `node`.
    @inline(__always)
    func text(_ node: SAXNode) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.base + Int(node.start), count: Int(node.count))
    }

    /// Whether text node `node` is white space alone (spaces, tabs, line feeds, carriage
    /// returns): what the reader skipped, as libxml2's `xmlIsBlankNode` says.
    @inline(__always)
    func isBlank(_ node: SAXNode) -> Bool {
        var byte = bytes.base + Int(node.start)
        let end = byte + Int(node.count)
        while byte < end {
            let c = byte.pointee
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return false }
            byte += 1
        }
        return true
    }
}

/// A growable array of plain values (no references) with no uniqueness or bounds checks: the
/// SAX callbacks append to these once per node, byte run or attribute. Plain values move with
/// their bytes, so the storage is `malloc`'s, grown with `realloc`.
struct FlatBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = malloc(capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        base[count] = element
        count += 1
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<Element>, count added: Int) {
        if count + added > capacity { grow(to: count + added) }
        memcpy(base + count, source, added * MemoryLayout<Element>.stride)
        count += added
    }

    /// Keeps only the `kept` elements from `from`, moved to the front (the ranges may overlap).
    mutating func moveToFront(from: Int, count kept: Int) {
        if from > 0 { memmove(base, base + from, kept * MemoryLayout<Element>.stride) }
        count = kept
    }

    mutating func removeAll() { count = 0 }

    mutating func removeLast(_ k: Int) { count -= k }

    private mutating func grow(to needed: Int) {
        capacity = max(needed, capacity * 2)
        base = realloc(base, capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    func deallocate() { free(base) }
}
