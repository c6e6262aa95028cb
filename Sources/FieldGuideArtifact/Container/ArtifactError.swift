/// Why an artifact could not be opened or read.
///
/// Every malformed file maps to one of these; a reader never traps on bad bytes.
public enum ArtifactError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or mapped.
    case io(path: String, reason: String)
    /// The first bytes are not a FieldGuide artifact.
    case badMagic(path: String)
    /// Written by a newer major format version than this reader knows.
    case unsupportedVersion(path: String, major: UInt16, minor: UInt16, supportedMajor: UInt16)
    /// The artifact holds another kind of data than was asked for.
    case wrongKind(path: String, expected: String, found: String)
    /// The file is shorter than its header says, or a section lies outside it.
    case truncated(path: String, expectedBytes: UInt64, foundBytes: UInt64)
    /// A stored checksum does not match the bytes.
    case checksumMismatch(path: String, section: String, expected: UInt32, found: UInt32)
    /// A required section is absent or its size does not fit its schema.
    case malformedSection(path: String, section: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, reason):
            return "\(path): cannot read artifact: \(reason)"
        case let .badMagic(path):
            return "\(path): not a FieldGuide artifact (expected magic \"FGUIDE\\r\\n\")"
        case let .unsupportedVersion(path, major, minor, supported):
            return "\(path): artifact format \(major).\(minor) is newer than this reader (major \(supported))"
        case let .wrongKind(path, expected, found):
            return "\(path): expected \(kindName(expected)), found \(kindName(found))"
        case let .truncated(path, expected, found):
            return "\(path): truncated: expected \(expected) bytes, found \(found)"
        case let .checksumMismatch(path, section, expected, found):
            return "\(path): section \(section) is corrupt: CRC-32 expected \(hex(expected)), found \(hex(found))"
        case let .malformedSection(path, section, reason):
            return "\(path): section \(section): \(reason)"
        }
    }
}

/// An artifact kind in words: `an aircraft artifact (ACFT)`; an unknown one by its code.
private func kindName(_ kind: String) -> String {
    let names = ["ACFT": "an aircraft artifact", "BIRD": "a birds artifact", "ACIX": "a manufacturer index", "HIST": "a history artifact"]
    return names[kind].map { "\($0) (\(kind))" } ?? "an artifact of kind \"\(kind)\""
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
}
