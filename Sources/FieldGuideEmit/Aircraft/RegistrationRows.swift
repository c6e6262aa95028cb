import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The registration tables of the parts `emit-aircraft` reads, in place: a registration
/// (numbered across the parts, in file order) → its row of values.
///
/// Why: the passes that write sections in `REGS` order read the registrations in no order, a
/// cache miss a row. Read through `registrations[part][row, column]`, a part's table was
/// copied, and the copy's reference counts are atomic instructions, each waiting for every load
/// before it: the misses of rows in a batch, or requested ahead, could not overlap.
///
/// ```swift
/// RegistrationRows.with(parts) { rows in
///     let modelRow = rows.values(registration)[S.RegistrationColumn.modelRow.rawValue]
/// }
/// ```
struct RegistrationRows {
    typealias S = AircraftSchema
    private let parts: [UnsafeBufferPointer<UInt32>]
    /// Where each part's registrations start in the numbering, and their end last.
    private let partStarts: [Int]
    private let width = RowTableBuilder<S.RegistrationColumn>().rowWidth

    private init(parts: [UnsafeBufferPointer<UInt32>], partStarts: [Int]) {
        self.parts = parts
        self.partStarts = partStarts
    }

    /// Calls `body` with the rows of `registrations`, valid during the call.
    static func with<Result>(_ registrations: [RowTableBuilder<S.RegistrationColumn>], _ body: (RegistrationRows) throws -> Result) rethrows -> Result {
        let partStarts = registrations.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
        return try RowTableBuilder.withValues(of: registrations) { try body(RegistrationRows(parts: $0, partStarts: partStarts)) }
    }

    /// The values of registration `registration`: column `c` at `[c.rawValue]`.
    @inline(__always)
    func values(_ registration: Int) -> UnsafePointer<UInt32> {
        var part = 0  // a handful of parts
        while registration >= partStarts[part + 1] { part += 1 }
        return parts[part].baseAddress! + (registration - partStarts[part]) * width
    }
}
