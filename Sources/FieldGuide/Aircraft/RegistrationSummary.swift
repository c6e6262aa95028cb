import FieldGuideArtifact

// The read side of `RSMB` and `RBKT` (format 1.2; layout and reasons in
// `RegistrationSummarySchema.swift`): a registration's N-number, serial number, model code,
// owner name, city, state and Mode S hex come from one summary instead of the row and the pool.

extension AircraftBundle {
    /// The summary table, or nil in an artifact written before it (format 1.0 and 1.1: a 1.1
    /// file's `RSUM` and `RHSH` are not read, its lookups go through `RKEY`). Both sections or
    /// neither: the directory points into the summaries.
    static func summaryTable(in opened: OpenedArtifact, registrations: Int) throws(ArtifactError) -> RegistrationSummaryTable? {
        let summaryTag = S.Section.bucketedSummaries, directoryTag = S.Section.summaryBuckets
        switch (opened.has(summaryTag), opened.has(directoryTag)) {
        case (false, false):
            return nil
        case (true, true):
            return try RegistrationSummaryTable(summaries: opened.file.section(summaryTag), directory: opened.file.section(directoryTag),
                                                rows: registrations, path: opened.path)
        case (let hasSummaries, _):
            throw .malformedSection(path: opened.path, section: (hasSummaries ? directoryTag : summaryTag).description,
                                    reason: "missing, while \(hasSummaries ? summaryTag : directoryTag) is present")
        }
    }
}

extension AircraftBundle {
    /// The values joined in string `id` (`AircraftSchema.listSeparator`), none for an empty one.
    ///
    /// Split on the separator's byte when the text is ASCII (what the FAA writes): splitting a
    /// `String` by `Character` walks grapheme clusters, about 3,000 instructions a list.
    func list(_ id: UInt32) -> [String] { list(bytes: strings.bytes(id)) }

    /// The values joined in `bytes` (as `list(_:)`).
    func list(bytes: UnsafeRawBufferPointer) -> [String] {
        guard !bytes.isEmpty else { return [] }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: bytes, as: UTF8.self).split(separator: S.listSeparator).map(String.init)
        }
        let separator = S.listSeparator.asciiValue!
        return bytes.split(separator: separator).map { ArtifactText.string(UnsafeRawBufferPointer(rebasing: $0)) }
    }
}

extension RegistrationRecord {
    /// The N-number from the summary's key; nil when the artifact has no summaries or the key
    /// is not the whole N-number.
    func summaryNNumber() -> String? {
        guard let table = bundle.summaries, let packed = table.nNumber(at: summaryStart(table)) else { return nil }
        let count = 8 - packed.trailingZeroBitCount / 8
        // The key's first byte is its most significant: swapped, the word's low byte.
        if let text = ArtifactText.inlineASCII(word: packed.byteSwapped, count: count) { return text }
        return withUnsafeBytes(of: packed.bigEndian) { ArtifactText.string(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }
}
