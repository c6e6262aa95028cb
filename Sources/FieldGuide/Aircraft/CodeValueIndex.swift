import FieldGuideArtifact

/// Every code table's values by table and the string id of their code, decoded once at open:
/// an `IDTable`.
///
/// Why: `RegistrationRecord.info` reads a dozen codes (its own and its model's and engine's).
/// Scanning a table's ids after finding the table in `CodeTable.allCases` cost about 150
/// instructions a code; here a code is a multiply, a load and a compare, then the value's copy.
///
/// ```swift
/// var index = CodeValueIndex(capacity: 2)
/// index.insert(.status, id: 17, CodeValue(code: "V", name: "Valid"))
/// index.value(.status, id: 17)?.name   // "Valid"
/// ```
struct CodeValueIndex {
    /// Keyed by `table position + 1` in the high 32 bits and the code's string id in the low.
    private var table: IDTable<CodeValue>

    /// An empty index keeping at most `capacity` values.
    init(capacity: Int) { table = IDTable(limit: capacity, expected: capacity) }

    /// Adds `value` as code `id` of `table`, replacing an earlier value of the same code (a later
    /// row wins, as in `AircraftBundle.codesByText`). More values than the capacity are dropped.
    mutating func insert(_ table: AircraftSchema.CodeTable, id: UInt32, _ value: CodeValue) {
        self.table.insert(Self.key(table, id), value)
    }

    /// The value of code `id` in `table`, nil when the table has no such code.
    @inline(__always)
    func value(_ table: AircraftSchema.CodeTable, id: UInt32) -> CodeValue? {
        self.table.value(Self.key(table, id))
    }

    @inline(__always)
    private static func key(_ table: AircraftSchema.CodeTable, _ id: UInt32) -> UInt64 {
        UInt64(table.position + 1) << 32 | UInt64(id)
    }
}

extension AircraftSchema.CodeTable {
    /// The table's place among the code tables: a switch the compiler folds where the table is
    /// a constant (every `code(_:_:)` call), where `allCases.firstIndex(of:)` was a search.
    var position: Int {
        switch self {
        case .aircraftType: return 0
        case .engineType: return 1
        case .aircraftCategory: return 2
        case .builderCertification: return 3
        case .weightClass: return 4
        case .registrantType: return 5
        case .status: return 6
        case .region: return 7
        case .airworthinessClass: return 8
        case .reservationType: return 9
        }
    }
}
