import FieldGuideArtifact

/// The rows of a registration's model and engine, found in its row (`UInt32.max` or past the
/// table when it has none: every read of them is bounds-checked, every request a hint), with
/// the string ids of the registration's text columns that `.info` decodes through the pool.
struct RelatedRows {
    let model: Int
    let engine: Int
    let text: RegistrationTextIDs
}

/// The string ids of a registration's text columns that `.info` decodes through the pool,
/// read from its row once.
///
/// Why: each id was read from the row three times (to request its offset, to request its
/// bytes, to decode it), each read a bounds check and a look-up of the column's place in the
/// row: 24 reads more than needed (callgrind, `.info`: 7,318 → 7,160 instructions a call).
/// The model's and engine's ids are read once the same way (`ModelTextIDs`, `EngineTextIDs`).
struct RegistrationTextIDs {
    let engineCode, registrantType, street, street2, zip, county, country: UInt32
    let certification, otherNames, uniqueID, kitManufacturer, kitModel: UInt32

    @inline(__always)
    init(_ bundle: AircraftBundle, row: Int) {
        typealias R = AircraftSchema.RegistrationColumn
        let columns = bundle.registrations
        engineCode = columns.value(row, R.engineCode); registrantType = columns.value(row, R.registrantType)
        street = columns.value(row, R.street); street2 = columns.value(row, R.street2); zip = columns.value(row, R.zip)
        county = columns.value(row, R.county); country = columns.value(row, R.country)
        certification = columns.value(row, R.certification); otherNames = columns.value(row, R.otherNames)
        uniqueID = columns.value(row, R.uniqueID); kitManufacturer = columns.value(row, R.kitManufacturer)
        kitModel = columns.value(row, R.kitModel)
    }

    /// Every id, in the order the columns lie in the row.
    @inline(__always)
    func forEach(_ body: (UInt32) -> Void) {
        body(engineCode); body(registrantType); body(street); body(street2); body(zip); body(county); body(country)
        body(certification); body(otherNames); body(uniqueID); body(kitManufacturer); body(kitModel)
    }
}

/// The string ids of a model's text columns, read from its row once (`RegistrationTextIDs`).
struct ModelTextIDs {
    let code, manufacturer, model, typeCertificateDataSheet, typeCertificateHolder: UInt32

    @inline(__always)
    init(_ bundle: AircraftBundle, row: Int) {
        typealias M = AircraftSchema.ModelColumn
        let columns = bundle.models
        code = columns.value(row, M.code); manufacturer = columns.value(row, M.manufacturer); model = columns.value(row, M.model)
        typeCertificateDataSheet = columns.value(row, M.typeCertificateDataSheet)
        typeCertificateHolder = columns.value(row, M.typeCertificateHolder)
    }

    @inline(__always)
    func forEach(_ body: (UInt32) -> Void) {
        body(code); body(manufacturer); body(model); body(typeCertificateDataSheet); body(typeCertificateHolder)
    }
}

/// The string ids of an engine's text columns, read from its row once (`RegistrationTextIDs`).
struct EngineTextIDs {
    let code, manufacturer, model: UInt32

    @inline(__always)
    init(_ bundle: AircraftBundle, row: Int) {
        typealias E = AircraftSchema.EngineColumn
        let columns = bundle.engines
        code = columns.value(row, E.code); manufacturer = columns.value(row, E.manufacturer); model = columns.value(row, E.model)
    }

    @inline(__always)
    func forEach(_ body: (UInt32) -> Void) { body(code); body(manufacturer); body(model) }
}

// How `RegistrationRecord.info` asks for its memory in an artifact without text records
// (format 1.2 and before; a 1.3 file's `.info` reads them: `RegistrationRecord+TextRecords.swift`).
//
// Why: `.info` decodes two dozen fields spread over a 100 MB file, most of them a cache miss
// for the string's offset and another for its bytes, after the miss for the row, and for the
// model's and engine's strings after the misses for their rows. Decoded one by one, each field
// waits for its own misses. Reading one byte of each first (what this did until then) still
// stalled: a load that misses holds up every instruction after it from retiring, and two dozen
// such loads filled the processor's window long before the last was issued. A prefetch asks
// for the line and retires at once, so each level's lines are requested together, and `.info`
// decodes what it already has while the next level comes:
//
// 1. the row is requested; the summary's fields (in cache since the lookup) are decoded;
// 2. `requestStrings`: the registration's string offsets and the model's and engine's rows are
//    requested; the codes, dates and numbers (from the row) are decoded;
// 3. `requestBytes`: the registration's string bytes and the model's and engine's string
//    offsets; the registration's strings are decoded;
// 4. `requestRelatedBytes`: the model's and engine's string bytes; their codes and numbers are
//    decoded, then their strings.
//
// The columns are the text columns `.info` decodes through the pool (the summary's and the
// codes' are not: `codeValues` has the codes by string id, and the approved operations are kept
// decoded), and its model's and engine's. Written out rather than looped over arrays of
// columns: the loop's array reads and bounds checks cost more than the hints.
extension AircraftBundle {
    /// Step 2: waits for the row, requests its strings' offsets and its model's and engine's rows.
    func requestStrings(registrationRow row: Int) -> RelatedRows {
        let related = RelatedRows(model: Int(registrations.value(row, .modelRow)), engine: Int(registrations.value(row, .engineRow)),
                                  text: RegistrationTextIDs(self, row: row))
        models.prefetch(related.model)
        engines.prefetch(related.engine)
        related.text.forEach(strings.prefetchOffsets)
        return related
    }

    /// Step 3: waits for the offsets, requests the registration's string bytes; waits for the
    /// model's and engine's rows, requests their strings' offsets and returns their ids.
    func requestBytes(_ related: RelatedRows) -> (model: ModelTextIDs, engine: EngineTextIDs) {
        related.text.forEach(strings.prefetchBytes)
        let text = (model: ModelTextIDs(self, row: related.model), engine: EngineTextIDs(self, row: related.engine))
        text.model.forEach(strings.prefetchOffsets)
        text.engine.forEach(strings.prefetchOffsets)
        return text
    }

    /// Step 4: waits for the model's and engine's string offsets, requests their bytes.
    func requestRelatedBytes(_ text: (model: ModelTextIDs, engine: EngineTextIDs)) {
        text.model.forEach(strings.prefetchBytes)
        text.engine.forEach(strings.prefetchBytes)
    }
}
