/// The bounds every XML file read through ``XMLStreamReader`` is held to.
///
/// One is FieldGuide's own, checked on the raw bytes before libxml2 sees them; two are the
/// bounds libxml2's tree builder kept, checked by the reader's SAX callbacks with its words;
/// the others are libxml2's parser's built-in limits, which hold because `XML_PARSE_HUGE` is
/// never set:
///
/// | bound | value | checked by |
/// | --- | --- | --- |
/// | attributes of one element | ``maxAttributesPerElement`` (1,000) | ``StartTagScanner``, before libxml2 parses the tag |
/// | element nesting depth | ``maxDepth`` (257 elements) | the reader (`Excessive depth in document`) |
/// | one text node | ``maxTextBytes`` (10,000,000 bytes) | the reader (`xmlSAX2Characters: huge text node`) |
/// | one attribute value | 10,000,000 bytes | libxml2 (`AttValue length too long`) |
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
    /// The deepest element nesting: the root and 256 levels below it (libxml2's tree builder's
    /// bound without `XML_PARSE_HUGE`, kept by the reader).
    public static let maxDepth = 257
    /// The longest text node (the reader's, as libxml2's tree builder bounded it) or attribute
    /// value (libxml2's parser's) without `XML_PARSE_HUGE`, in bytes.
    public static let maxTextBytes = 10_000_000
}
