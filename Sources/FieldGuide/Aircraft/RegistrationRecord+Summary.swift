import FieldGuideArtifact

// The six fields a registration's summary holds (`RegistrationSummarySchema`), inlinable.
//
// Why: a lookup that reads them (an app's list row; issue 18 compares it with SQLite) made a
// call into this module for the lookup and one for each field, each finding the summary table,
// the summary's start and the field's bounds again. Here the lookup and each field's usual
// case, short ASCII read straight from the summary (`RegistrationSummaryTable.shortText`), are
// small enough to inline into the caller. Everything else is a call, as before: a long or
// non-ASCII value (`summaryFieldText`), and an artifact without summaries or a value kept out
// of one, read through `REGS` and the pool.
extension RegistrationRecord {
    @inlinable @inline(__always) public var serialNumber: String { summaryField(.serialNumber) }
    @inlinable @inline(__always) public var modelCode: String { summaryField(.modelCode) }
    @inlinable @inline(__always) public var name: String { summaryField(.name) }
    @inlinable @inline(__always) public var city: String { summaryField(.city) }
    @inlinable @inline(__always) public var state: String { summaryField(.state) }

    /// The ICAO 24-bit address as six hex digits.
    @inlinable @inline(__always) public var modeSHex: String? {
        if let table = bundle.summaries, let text = table.shortText(.modeSHex, at: summaryStart(table)) {
            return text.isEmpty ? nil : text
        }
        return modeSHexText()
    }

    /// A summary field: short ASCII inline, anything else through a call.
    @inlinable @inline(__always)
    func summaryField(_ field: AircraftSchema.SummaryField) -> String {
        if let table = bundle.summaries, let text = table.shortText(field, at: summaryStart(table)) { return text }
        return summaryFieldText(field)
    }

    /// Where the registration's summary starts: known when the lookup found it, else from the
    /// row (records found by Mode S or a search).
    @inlinable @inline(__always)
    func summaryStart(_ table: RegistrationSummaryTable) -> Int {
        summary >= 0 ? summary : table.start(row)
    }

    /// A summary field from the summary when it holds it, else through the row and the pool.
    @usableFromInline @inline(never)
    func summaryFieldText(_ field: AircraftSchema.SummaryField) -> String {
        summaryText(field) ?? bundle.string(bundle.registrations.value(row, field.column))
    }

    /// `modeSHex` when the summary's value is not short ASCII, or there is no summary.
    @usableFromInline @inline(never)
    func modeSHexText() -> String? {
        if let text = summaryText(.modeSHex) { return text.isEmpty ? nil : text }
        return AircraftSchema.modeSHexText(bundle.registrations.value(row, .modeSHex))
    }

    /// Field `field` from the registration's summary; nil when the artifact has no summaries or
    /// the value was too long to be kept in one.
    func summaryText(_ field: AircraftSchema.SummaryField) -> String? {
        guard let table = bundle.summaries else { return nil }
        return table.text(field, at: summaryStart(table))
    }
}
