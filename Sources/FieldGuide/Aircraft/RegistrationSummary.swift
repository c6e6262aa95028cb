import FieldGuideArtifact

// The read side of `RSUM` and `RHSH` (format 1.1; layout and reasons in
// `RegistrationSummarySchema.swift`): a registration's N-number, serial number, model code,
// owner name, city, state and Mode S hex come from one summary instead of the row and the pool.

extension AircraftBundle {
    /// The summaries and the hash index, or nils in an artifact written before them. Both or
    /// neither: the index points into the summaries.
    static func summarySections(in opened: OpenedArtifact, registrations: Int) throws(ArtifactError)
        -> (RegistrationSummaries?, RegistrationHashIndex?) {
        let summaryTag = S.Section.registrationSummaries, hashTag = S.Section.registrationHash
        switch (opened.has(summaryTag), opened.has(hashTag)) {
        case (false, false):
            return (nil, nil)
        case (true, true):
            return (try RegistrationSummaries(opened.file.section(summaryTag), rows: registrations, tag: summaryTag, path: opened.path),
                    try RegistrationHashIndex(opened.file.section(hashTag), tag: hashTag, path: opened.path))
        case (let hasSummaries, _):
            throw .malformedSection(path: opened.path, section: (hasSummaries ? hashTag : summaryTag).description,
                                    reason: "missing, while \(hasSummaries ? summaryTag : hashTag) is present")
        }
    }
}

extension AircraftBundle {
    /// The values joined in string `id` (`AircraftSchema.listSeparator`), none for an empty one.
    ///
    /// Split on the separator's byte when the text is ASCII (what the FAA writes): splitting a
    /// `String` by `Character` walks grapheme clusters, about 3,000 instructions a list.
    func list(_ id: UInt32) -> [String] {
        let bytes = strings.bytes(id)
        guard !bytes.isEmpty else { return [] }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: bytes, as: UTF8.self).split(separator: S.listSeparator).map(String.init)
        }
        let separator = S.listSeparator.asciiValue!
        return bytes.split(separator: separator).map { ArtifactText.string(UnsafeRawBufferPointer(rebasing: $0)) }
    }
}

extension RegistrationRecord {
    /// Column `column` from the registration's summary; nil when the column is not a summary
    /// field, the artifact has no summaries, or the value was too long to be kept in one.
    @inline(__always)
    func summaryText(_ column: AircraftSchema.RegistrationColumn) -> String? {
        let field: AircraftSchema.SummaryField
        switch column {
        case .nNumber: field = .nNumber
        case .serialNumber: field = .serialNumber
        case .modelCode: field = .modelCode
        case .name: field = .name
        case .city: field = .city
        case .state: field = .state
        case .modeSHex: field = .modeSHex
        default: return nil
        }
        guard let summaries = bundle.summaries else { return nil }
        let start = summary >= 0 ? summary : summaries.start(row)
        return summaries.field(field, at: start).map(ArtifactText.string)
    }
}
