import FieldGuideArtifact

/// `RTXR`, `MTXR`, `ETXR` and `RTXL` (format 1.3; layout and reasons in `TextRecordSchema.swift`):
/// the text `.info` decodes, a record a registration, model and engine, and each
/// registration's links to its model's and engine's records.
package struct AircraftTextRecords: Sendable {
    typealias S = AircraftSchema
    package let registrations: TextRecords
    package let models: TextRecords
    package let engines: TextRecords
    /// `RTXL`: each registration's model's and engine's records.
    package let links: TextRecordLinks

    /// The four sections, each with a record (or links) for every row of its table, or nil in
    /// an artifact written before them; all four or none. `.full` verification checks every
    /// record, and every link against the registration's model and engine.
    init?(in opened: OpenedArtifact, registrations table: RowTable<S.RegistrationColumn>, models: Int, engines: Int) throws(ArtifactError) {
        let tags = [S.Section.registrationText, S.Section.modelText, S.Section.engineText, S.Section.registrationTextLinks]
        let present = tags.filter(opened.has)
        guard !present.isEmpty else { return nil }
        if present.count < tags.count {
            let missing = tags.first { !opened.has($0) }!
            throw .malformedSection(path: opened.path, section: missing.description, reason: "missing, while \(present[0]) is present")
        }
        func records(_ tag: FourCC, rows: Int, fields: Int) throws(ArtifactError) -> TextRecords {
            try opened.check(tag, rows: Int(opened.file.info(tag)?.rows ?? 0), expected: rows)
            let records = try TextRecords(opened.file.section(tag), rows: rows, fields: fields, tag: tag, path: opened.path)
            if opened.verification == .full { try records.verify(path: opened.path) }
            return records
        }
        registrations = try records(tags[0], rows: table.count, fields: S.RegistrationTextField.allCases.count)
        self.models = try records(tags[1], rows: models, fields: S.ModelTextField.allCases.count)
        self.engines = try records(tags[2], rows: engines, fields: S.EngineTextField.allCases.count)
        try opened.check(tags[3], rows: Int(opened.file.info(tags[3])?.rows ?? 0), expected: table.count)
        links = try TextRecordLinks(opened.file.section(tags[3]), rows: table.count, tag: tags[3], path: opened.path)
        if opened.verification == .full { try verifyLinks(table, path: opened.path) }
    }

    private func verifyLinks(_ table: RowTable<S.RegistrationColumn>, path: String) throws(ArtifactError) {
        for row in 0..<table.count {
            let (model, engine) = links[row]
            let expected = (models.offset(of: Int(table.value(row, .modelRow))) ?? .max, engines.offset(of: Int(table.value(row, .engineRow))) ?? .max)
            guard model == expected.0, engine == expected.1 else {
                throw .malformedSection(path: path, section: S.Section.registrationTextLinks.description,
                                        reason: "registration \(row) links to \(model), \(engine), not its model's and engine's records (\(expected.0), \(expected.1))")
            }
        }
    }
}

extension RegistrationRecord {
    private typealias C = AircraftSchema.RegistrationColumn

    /// `.info` with its text from the records: two memory waits after the lookup.
    ///
    /// 1. The row, where its record starts and its links are requested (all from the row
    ///    number); the summary's fields (in cache since the lookup) are decoded.
    /// 2. The model's and engine's rows (from the row) and the three records are requested;
    ///    the row's codes, dates and numbers are decoded, then the registration's text, the
    ///    model's and the engine's.
    ///
    /// A field a record kept out (longer than 254 bytes) is read from the pool. Inlined into
    /// `info`: a call returned the record through one more copy of its 600 bytes.
    @inline(__always)
    func info(through text: AircraftTextRecords) -> RegistrationInfo {
        let b = bundle, row = row
        b.registrations.prefetch(row)
        text.registrations.prefetchStart(row)
        text.links.prefetch(row)
        let summary = RegistrationSummaryPart(self)  // in cache since the lookup
        let modelRow = Int(b.registrations.value(row, C.modelRow)), engineRow = Int(b.registrations.value(row, C.engineRow))
        let (modelLink, engineLink) = text.links[row]
        b.models.prefetch(modelRow)
        b.engines.prefetch(engineRow)
        text.models.prefetchRecord(at: modelLink)
        text.engines.prefetchRecord(at: engineLink)
        text.registrations.prefetchRecord(row)
        let registrantType = b.registrations.value(row, C.registrantType)
        let rowPart = RegistrationRowPart(self, registrantType: registrantType)
        var f = text.registrations.record(row).fields()
        let r = b.registrations
        // In `RegistrationTextField` order; a field the record kept out from the pool.
        let engineCode = b.text(&f, orPool: r.value(row, C.engineCode)), street = b.text(&f, orPool: r.value(row, C.street))
        let street2 = b.text(&f, orPool: r.value(row, C.street2)), zip = b.text(&f, orPool: r.value(row, C.zip))
        let county = b.text(&f, orPool: r.value(row, C.county)), country = b.text(&f, orPool: r.value(row, C.country))
        let certification = b.text(&f, orPool: r.value(row, C.certification))
        let otherNames = f.next().map { b.list(bytes: $0) } ?? b.list(r.value(row, C.otherNames))
        let uniqueID = b.text(&f, orPool: r.value(row, C.uniqueID)), kitManufacturer = b.text(&f, orPool: r.value(row, C.kitManufacturer))
        let textPart = RegistrationTextPart(engineCode: engineCode, street: street, street2: street2, zip: zip, county: county, country: country,
                                            certification: certification, otherNames: otherNames, uniqueID: uniqueID,
                                            kitManufacturer: kitManufacturer, kitModel: b.text(&f, orPool: r.value(row, C.kitModel)))
        let model = modelRow < b.models.count ? b.modelInfo(modelRow, record: text.models.record(at: modelLink)) : nil
        let engine = engineRow < b.engines.count ? b.engineInfo(engineRow, record: text.engines.record(at: engineLink)) : nil
        return RegistrationInfo(summary, rowPart, textPart, ownerWithheld: b.withholdsOwner(registrantType: registrantType), model: model, engine: engine)
    }
}
