internal import CLibXML2

/// The SAX2 handler `XMLStreamReader` parses with: libxml2's own SAX2 functions for the document
/// and its DTD (so an internal subset's entities are declared and their amplification limits
/// hold, as with libxml2's reader), and callbacks of ours that append elements and text to the
/// reader's `SAXNodeQueue` instead of building a tree. Every callback is given the parser
/// context (libxml2's own functions need it); the queue is its `_private`.
enum SAXHandler {
    static func make() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = startElement
        handler.endElementNs = endElement
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters   // CDATA reads as text (XML_PARSE_NOCDATA clears this too)
        handler.comment = { context, _ in SAXHandler.queue(context) { $0.closeText() } }
        handler.processingInstruction = { context, _, _ in SAXHandler.queue(context) { $0.closeText() } }
        handler.getEntity = entity
        handler.reference = { context, name in
            guard let parser = SAXHandler.parser(context) else { return }
            SAXHandler.queue(context) { $0.refuseEntity(parser, name) }
        }
        handler.serror = error
        (handler.startElement, handler.endElement) = (nil, nil)   // SAX1: never called in SAX2 mode
        (handler.warning, handler.error, handler.fatalError) = (nil, nil, nil)
        return handler
    }

    @inline(__always)
    private static func parser(_ context: UnsafeMutableRawPointer?) -> xmlParserCtxtPtr? {
        context?.assumingMemoryBound(to: xmlParserCtxt.self)
    }

    /// Calls `body` with the reader's queue, without retaining it (it outlives the parser).
    @inline(__always)
    private static func queue(_ context: UnsafeMutableRawPointer?, _ body: (SAXNodeQueue) -> Void) {
        guard let queue = SAXHandler.parser(context)?.pointee._private else { return }
        Unmanaged<SAXNodeQueue>.fromOpaque(queue)._withUnsafeGuaranteedRef(body)
    }

    private static let startElement: startElementNsSAX2Func = { context, local, prefix, uri, namespaceCount, namespaces, count, defaulted, attributes in
        guard let parser = SAXHandler.parser(context) else { return }
        // Attributes defaulted from an ATTLIST come last; the reader's tree left them out too.
        let given = Int(count) - Int(defaulted)
        SAXHandler.queue(context) { $0.start(parser, local: local, prefix: prefix, uri: uri, namespaces: (Int(namespaceCount), namespaces),
                                  attributes: (given, attributes)) }
    }

    private static let endElement: endElementNsSAX2Func = { context, local, prefix, uri in
        guard let parser = SAXHandler.parser(context) else { return }
        SAXHandler.queue(context) { $0.end(parser, local: local, prefix: prefix, uri: uri) }
    }

    private static let characters: charactersSAXFunc = { context, text, count in
        guard let parser = SAXHandler.parser(context) else { return }
        SAXHandler.queue(context) { $0.characters(parser, text, Int(count)) }
    }

    /// An entity by name: inside the DTD, libxml2's own lookup (its declarations need it); in the
    /// document, a declared entity other than the five predefined ones is refused at the
    /// reference, before libxml2 parses its replacement text (nothing is ever substituted or
    /// loaded). An undeclared one is left to libxml2, which says so in its words.
    private static let entity: getEntitySAXFunc = { context, name in
        guard let parser = SAXHandler.parser(context) else { return nil }
        let found = xmlSAX2GetEntity(context, name)
        guard parser.pointee.inSubset == 0, let found, found.pointee.etype != XML_INTERNAL_PREDEFINED_ENTITY else { return found }
        SAXHandler.queue(context) { $0.refuseEntity(parser, name) }
        return nil
    }

    /// An error libxml2 raises with no parser to send it to (the encoding converter's, the
    /// input's): the thread's structured handler while a chunk is parsed, its data the queue.
    /// Its words are kept; `XMLStreamReader` places it, as the parser then stops.
    static let outsideError: xmlStructuredErrorFunc = { data, error in
        guard let data, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let queue = Unmanaged<SAXNodeQueue>.fromOpaque(data).takeUnretainedValue()
        guard queue.outsideError == nil else { return }
        queue.outsideError = words(of: error)
    }

    /// libxml2's errors (not its warnings), the first kept with its line, column and words.
    private static let error: xmlStructuredErrorFunc = { context, error in
        guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = words(of: error)
        let (line, column) = (Int(error.pointee.line), Int(error.pointee.int2))
        let code = error.pointee.code
        SAXHandler.queue(context) { $0.libxml2Error(code: code, line: line, column: column, message) }
    }

    /// libxml2's words for `error`, without its trailing line feed.
    private static func words(of error: xmlErrorPtr) -> String {
        var message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
        while message.last == "\n" { message.removeLast() }
        return message
    }
}
