import FieldGuideDiagnostics
import FieldGuideXML

/// The properties of one XMP sidecar that FieldGuide reads, merged over every `rdf:Description`.
///
/// Properties are keyed by a canonical prefix and local name (`exif:GPSLatitude`), found by
/// namespace URI, so a file that binds other prefixes reads the same. Both forms work: a
/// property as an attribute of `rdf:Description`, or as an element holding text or an
/// `rdf:Bag`/`rdf:Seq`/`rdf:Alt` of `rdf:li`. Empty values count as absent.
///
/// ```swift
/// let sidecar: XMPSidecar = ...
/// sidecar.value("exif:GPSLatitude")          // "87,21.291962N"
/// sidecar.items("lr:hierarchicalSubject")    // ["Birds|Heron", …]
/// ```
public struct XMPSidecar: Sendable, Hashable {
    /// Simple values (first one wins when a property is written twice).
    public private(set) var values: [String: String] = [:]
    /// Array values, in document order, each with the line of its `rdf:li`.
    public private(set) var lists: [String: [(text: String, line: Int)]] = [:]
    /// The line of the first `rdf:Description`.
    public internal(set) var line = 1

    public func value(_ key: String) -> String? { values[key] }
    public func items(_ key: String) -> [String] { lists[key]?.map(\.text) ?? [] }

    mutating func set(_ key: String, _ value: String) {
        let trimmed = value.trimmedASCII
        guard !trimmed.isEmpty, values[key] == nil else { return }
        values[key] = trimmed
    }

    mutating func append(_ key: String, _ value: String, line: Int) {
        let trimmed = value.trimmedASCII
        guard !trimmed.isEmpty else { return }
        lists[key, default: []].append((trimmed, line))
    }

    public static func == (a: XMPSidecar, b: XMPSidecar) -> Bool {
        a.values == b.values && a.line == b.line && a.lists.mapValues { $0.map(\.text) } == b.lists.mapValues { $0.map(\.text) }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    /// Canonical prefixes of the namespaces FieldGuide reads.
    static let prefixes: [String: String] = [
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
        "http://ns.adobe.com/exif/1.0/": "exif",
        "http://ns.adobe.com/xap/1.0/": "xmp",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://ns.adobe.com/lightroom/1.0/": "lr",
        "http://ns.adobe.com/photoshop/1.0/": "photoshop",
        "adobe:ns:meta/": "x",
    ]

    /// `exif:GPSLatitude` for the exif namespace whatever its prefix; `{uri}local` for others.
    static func key(uri: String?, qualifiedName: String) -> String {
        let local = XMLCursor.localName(qualifiedName)
        guard let uri else { return local }
        if let prefix = prefixes[uri] { return prefix + ":" + local }
        return "{" + uri + "}" + local
    }
}

extension XMPSidecar {
    /// `rdf:Description` and `rdf:li` by namespace and local name, in the reader's dictionary:
    /// most elements of a sidecar are neither (a darktable history is thousands of `rdf:li`
    /// with ten attributes each, none of them read), so no `String` is made for them.
    private struct Names {
        let rdf, description, li: XMLName

        init(_ reader: XMLStreamReader) {
            rdf = reader.intern("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
            (description, li) = (reader.intern("Description"), reader.intern("li"))
        }
    }

    /// Streams the XMP packet after its root element and collects the properties.
    static func collect(_ xml: inout XMLCursor, rootLine: Int) throws(LocatedError) -> XMPSidecar {
        var sidecar = XMPSidecar()
        sidecar.line = rootLine
        let names = Names(xml.reader)
        var sawDescription = false
        var descriptionDepth: Int?          // depth of the rdf:Description being read
        var property: (key: String, depth: Int, text: String)?
        var item: (text: String, line: Int, depth: Int)?
        while let node = try xml.read() {
            switch node {
            case .start:
                let reader = xml.reader
                let inRDF = reader.namespace == names.rdf
                if inRDF, reader.localName == names.description, descriptionDepth == nil, property == nil {
                    descriptionDepth = xml.depth
                    if !sawDescription { sidecar.line = reader.line; sawDescription = true }
                    for attribute in reader.attributes where attribute.name.contains(":") && !attribute.name.hasPrefix("xmlns") {
                        let attributeKey = XMPSidecar.key(uri: reader.attributeNamespaceURI(attribute.name), qualifiedName: attribute.name)
                        if !attributeKey.hasPrefix("rdf:") { sidecar.set(attributeKey, attribute.value) }
                    }
                } else if let top = descriptionDepth, xml.depth == top + 1 {
                    property = (XMPSidecar.key(uri: reader.elementNamespaceURI, qualifiedName: reader.nameString), xml.depth, "")
                } else if let p = property, inRDF, reader.localName == names.li, xml.depth == p.depth + 2 {
                    item = ("", reader.line, xml.depth)
                }
            case .text:
                if let p = property, xml.depth == p.depth { property?.text += xml.reader.textString }
                if let i = item, xml.depth == i.depth { item?.text += xml.reader.textString }
            case .end:
                // `depth` is already one less than the element that just closed.
                if let i = item, xml.depth == i.depth - 1, let p = property {
                    sidecar.append(p.key, i.text, line: i.line)
                    item = nil
                } else if let p = property, xml.depth == p.depth - 1 {
                    sidecar.set(p.key, p.text)
                    property = nil
                } else if let top = descriptionDepth, xml.depth == top - 1 {
                    descriptionDepth = nil
                }
            }
        }
        return sidecar
    }
}
