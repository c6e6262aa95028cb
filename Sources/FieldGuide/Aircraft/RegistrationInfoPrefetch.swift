import FieldGuideArtifact

extension AircraftBundle {
    /// Reads one byte of each string `RegistrationRecord.info` is about to decode through the
    /// pool, and the rows of its model and engine, in one batch before any is decoded.
    ///
    /// Why: `.info` decodes a dozen fields spread over a 100 MB file, most of them a cache
    /// miss for the string's offset and another for its bytes. Decoded one by one, each field
    /// waits for its own misses; these loads do not depend on each other, so the processor
    /// waits for them together. What stays serial is the row, then the strings and the model's
    /// row, then the model's strings: three or four waits instead of a few dozen.
    ///
    /// The columns are the text columns `.info` decodes through the pool (the summary's and
    /// the codes' are not: `codeValues` has the codes by string id, and the approved operations
    /// are kept decoded), and its model's and engine's. Written out rather than looped over
    /// arrays of columns: the loop's array reads and bounds checks cost twice the touches.
    func touchInfo(registrationRow row: Int) {
        var sum = 0
        @inline(__always) func touch(_ id: UInt32) { sum &+= Self.firstByte(strings.bytes(id)) }
        @inline(__always) func touch(_ column: S.RegistrationColumn) { touch(registrations.value(row, column)) }
        touch(.engineCode); touch(.registrantType); touch(.street); touch(.street2); touch(.zip); touch(.county)
        touch(.country); touch(.certification); touch(.otherNames); touch(.uniqueID); touch(.kitManufacturer); touch(.kitModel)
        let model = Int(registrations.value(row, .modelRow)), engine = Int(registrations.value(row, .engineRow))
        @inline(__always) func touch(_ column: S.ModelColumn) { touch(models.value(model, column)) }
        @inline(__always) func touch(_ column: S.EngineColumn) { touch(engines.value(engine, column)) }
        typealias M = S.ModelColumn
        typealias E = S.EngineColumn
        touch(M.code); touch(M.manufacturer); touch(M.model); touch(M.typeCertificateDataSheet); touch(M.typeCertificateHolder)
        touch(E.code); touch(E.manufacturer); touch(E.model)
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
