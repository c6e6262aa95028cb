import FieldGuideArtifact

/// The rows of a registration's model and engine, found in its row (`UInt32.max` or past the
/// table when it has none: every read of them is bounds-checked, every request a hint).
struct RelatedRows {
    let model: Int
    let engine: Int
}

// How `RegistrationRecord.info` asks for its memory.
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
    private typealias R = S.RegistrationColumn
    private typealias M = S.ModelColumn
    private typealias E = S.EngineColumn

    /// Step 2: waits for the row, requests its strings' offsets and its model's and engine's rows.
    func requestStrings(registrationRow row: Int) -> RelatedRows {
        let related = RelatedRows(model: Int(registrations.value(row, .modelRow)), engine: Int(registrations.value(row, .engineRow)))
        models.prefetch(related.model)
        engines.prefetch(related.engine)
        forEachString(registrationRow: row, strings.prefetchOffsets)
        return related
    }

    /// Step 3: waits for the offsets, requests the registration's string bytes; waits for the
    /// model's and engine's rows, requests their strings' offsets.
    func requestBytes(registrationRow row: Int, _ related: RelatedRows) {
        forEachString(registrationRow: row, strings.prefetchBytes)
        forEachString(related, strings.prefetchOffsets)
    }

    /// Step 4: waits for the model's and engine's string offsets, requests their bytes.
    func requestRelatedBytes(_ related: RelatedRows) {
        forEachString(related, strings.prefetchBytes)
    }

    @inline(__always)
    private func forEachString(registrationRow row: Int, _ body: (UInt32) -> Void) {
        let columns = registrations
        body(columns.value(row, R.engineCode)); body(columns.value(row, R.registrantType))
        body(columns.value(row, R.street)); body(columns.value(row, R.street2))
        body(columns.value(row, R.zip)); body(columns.value(row, R.county)); body(columns.value(row, R.country))
        body(columns.value(row, R.certification)); body(columns.value(row, R.otherNames)); body(columns.value(row, R.uniqueID))
        body(columns.value(row, R.kitManufacturer)); body(columns.value(row, R.kitModel))
    }

    @inline(__always)
    private func forEachString(_ related: RelatedRows, _ body: (UInt32) -> Void) {
        let model = related.model, engine = related.engine
        body(models.value(model, M.code)); body(models.value(model, M.manufacturer)); body(models.value(model, M.model))
        body(models.value(model, M.typeCertificateDataSheet)); body(models.value(model, M.typeCertificateHolder))
        body(engines.value(engine, E.code)); body(engines.value(engine, E.manufacturer)); body(engines.value(engine, E.model))
    }
}
