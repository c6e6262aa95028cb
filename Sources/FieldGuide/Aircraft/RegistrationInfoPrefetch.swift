import FieldGuideArtifact

extension AircraftBundle {
    /// The text columns `RegistrationRecord.info` decodes through the pool (the summary's and
    /// the codes' are not: `codeValues` has the codes by string id, and the approved operations
    /// are kept decoded), and its model's and engine's.
    private static let infoRegistrationColumns: [S.RegistrationColumn] = [
        .engineCode, .registrantType, .street, .street2, .zip, .county, .country, .certification,
        .otherNames, .uniqueID, .kitManufacturer, .kitModel,
    ]
    private static let infoModelColumns: [S.ModelColumn] = [.code, .manufacturer, .model, .typeCertificateDataSheet, .typeCertificateHolder]
    private static let infoEngineColumns: [S.EngineColumn] = [.code, .manufacturer, .model]

    /// Reads one byte of each string `RegistrationRecord.info` is about to decode through the
    /// pool, and the rows of its model and engine, in one batch before any is decoded.
    ///
    /// Why: `.info` decodes a dozen fields spread over a 100 MB file, most of them a cache
    /// miss for the string's offset and another for its bytes. Decoded one by one, each field
    /// waits for its own misses; these loads do not depend on each other, so the processor
    /// waits for them together. What stays serial is the row, then the strings and the model's
    /// row, then the model's strings: three or four waits instead of a few dozen.
    func touchInfo(registrationRow row: Int) {
        var sum = 0
        for column in Self.infoRegistrationColumns { sum &+= Self.firstByte(strings.bytes(registrations.value(row, column))) }
        let model = Int(registrations.value(row, .modelRow)), engine = Int(registrations.value(row, .engineRow))
        for column in Self.infoModelColumns { sum &+= Self.firstByte(strings.bytes(models.value(model, column))) }
        for column in Self.infoEngineColumns { sum &+= Self.firstByte(strings.bytes(engines.value(engine, column))) }
        keepLoaded(sum)
    }

    @inline(__always)
    private static func firstByte(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.isEmpty ? 0 : Int(bytes.load(as: UInt8.self))
    }
}

/// Takes a value the optimizer must assume is used, so the loads that made it stay.
@_optimize(none)
private func keepLoaded(_ value: Int) {}
