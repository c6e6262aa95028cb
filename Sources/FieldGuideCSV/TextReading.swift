/// A value a reader kept but did not read as written: bytes that were not valid UTF-8 (read as
/// Latin-1), or a control character (replaced with U+FFFD). Where it was and what it became.
/// Readers that have no rejects report of their own collect these for their stage to report
/// as warnings; nothing is replaced or guessed silently.
///
/// ```swift
/// let reading = TextReading(file: "taxonomy.csv", line: 12, field: "PRIMARY_COM_NAME", value: "Pinson des Ardennes é", kind: .latin1)
/// reading.description   // taxonomy.csv:12: PRIMARY_COM_NAME "Pinson des Ardennes é": not valid UTF-8; read as Latin-1 (ISO-8859-1)
/// ```
public struct TextReading: Sendable, Hashable, CustomStringConvertible {
    /// What the reader did to the value.
    public enum Kind: Sendable, Hashable {
        /// Not valid UTF-8: every byte read as the Latin-1 character of its value.
        case latin1
        /// This control character (the first; `FileText.isControlCharacter`) and any other
        /// became U+FFFD.
        case controlCharacter(Unicode.Scalar)
    }

    /// The file as the reader was given it.
    public let file: String
    /// The record's first line (1-based).
    public let line: Int
    /// The column's name, or what the format calls the field (`label`, `period 3`).
    public let field: String
    /// The value as the reader kept it (Latin-1 decoded, control characters replaced).
    public let value: String
    public let kind: Kind

    public init(file: String, line: Int, field: String, value: String, kind: Kind) {
        self.file = file; self.line = line; self.field = field; self.value = value; self.kind = kind
    }

    public var isLatin1: Bool { kind == .latin1 }

    /// The warning's words without its place: `FIELD "value": not valid UTF-8; read as Latin-1 (ISO-8859-1)`.
    public var message: String {
        switch kind {
        case .latin1: "\(field) \"\(value)\": \(FileText.latin1Reason)"
        case let .controlCharacter(scalar): "\(field) \"\(value)\": \(FileText.controlReason(scalar))"
        }
    }

    public var description: String { "\(file):\(line): \(message)" }
}

extension FileText {
    /// `bytes` as text a reader keeps (`decode`, then `replacingControlCharacters`), with a
    /// reading appended to `readings` for each thing done to them: a Latin-1 reading, a
    /// control character replaced, or both. `field` is asked for only then.
    ///
    /// ```swift
    /// let name = FileText.read(bytes, file: path, line: 7, field: "name", into: &readings)
    /// ```
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, line: Int, field: @autoclosure () -> String,
                             into readings: inout [TextReading]) -> String {
        keep(decode(bytes), file: file, line: line, field: field(), into: &readings)
    }

    /// A decoded value as text a reader keeps: control characters replaced, each thing done
    /// to it appended to `readings` (`read`).
    package static func keep(_ decoded: (text: String, isLatin1: Bool), file: String, line: Int, field: @autoclosure () -> String,
                             into readings: inout [TextReading]) -> String {
        let (text, control) = replacingControlCharacters(in: decoded.text)
        guard decoded.isLatin1 || control != nil else { return text }
        let name = field()
        if decoded.isLatin1 { readings.append(TextReading(file: file, line: line, field: name, value: text, kind: .latin1)) }
        if let control { readings.append(TextReading(file: file, line: line, field: name, value: text, kind: .controlCharacter(control))) }
        return text
    }
}

extension CSVRecord {
    /// Field `i` as text a reader keeps, untrimmed (`FileText.read`): UTF-8 or Latin-1, control
    /// characters replaced, a reading appended for each.
    ///
    /// ```swift
    /// let name = record.text(0, file: path, field: "name", into: &readings)
    /// ```
    package func text(_ i: Int, file: String, field: @autoclosure () -> String, into readings: inout [TextReading]) -> String {
        withField(i) { FileText.read($0, file: file, line: line, field: field(), into: &readings) }
    }
}
