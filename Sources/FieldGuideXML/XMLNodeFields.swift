internal import CLibXML2

/// What libxml2's reader calls give for a node, read from the node's own fields where they
/// decide alone: `XMLStreamReader` asks these on every node of a file, and each call they save
/// cost about as much as the test itself. Each says which call it stands for.
enum XMLNodeFields {
    /// What `xmlIsBlankNode` gives for a text node's content: true when it is empty or only
    /// spaces, tabs, line feeds and carriage returns (libxml2's `IS_BLANK_CH`).
    @inline(__always)
    static func isBlank(_ content: UnsafeMutablePointer<xmlChar>?) -> Bool {
        guard var byte = content else { return true }
        while byte.pointee != 0 {
            let c = byte.pointee
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return false }
            byte += 1
        }
        return true
    }

    /// Whether every attribute in the list has no prefix and a value of one text node: then its
    /// `name` and its text node's content are what `xmlTextReaderConstName` and
    /// `xmlTextReaderConstValue` give for it.
    static func plainAttributes(_ first: UnsafeMutablePointer<xmlAttr>?) -> Bool {
        var attribute = first
        while let current = attribute {
            if let ns = current.pointee.ns, ns.pointee.prefix != nil { return false }
            guard let child = current.pointee.children, child.pointee.type == XML_TEXT_NODE, child.pointee.next == nil else { return false }
            attribute = current.pointee.next
        }
        return true
    }

    /// What `xmlTextReaderConstName` gives for an element without a namespace prefix: its name,
    /// already in the dictionary; nil for a prefixed name (libxml2 makes `prefix:name` there).
    @inline(__always)
    static func qualifiedName(_ node: xmlNodePtr) -> UnsafePointer<xmlChar>? {
        if let ns = node.pointee.ns, ns.pointee.prefix != nil { return nil }
        return node.pointee.name
    }
}
