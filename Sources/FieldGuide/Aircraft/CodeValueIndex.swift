import FieldGuideArtifact

/// Every code table's values by table and the string id of their code, decoded once at open:
/// a small open-addressing hash table.
///
/// Why: `RegistrationRecord.info` reads a dozen codes (its own and its model's and engine's).
/// Scanning a table's ids after finding the table in `CodeTable.allCases` cost about 150
/// instructions a code; here a code is a multiply, a load and a compare, then the value's retain.
///
/// ```swift
/// var index = CodeValueIndex(capacity: 2)
/// index.insert(.status, id: 17, CodeValue(code: "V", name: "Valid"))
/// index.value(.status, id: 17)?.name   // "Valid"
/// ```
struct CodeValueIndex {
    /// `table position + 1` in the high 32 bits, the code's string id in the low; 0 for an empty slot.
    private var keys: [UInt64]
    private var values: [CodeValue?]
    private let shift: UInt64

    /// An empty index with room for `capacity` values (slots: a power of two, at least twice that).
    init(capacity: Int) {
        var slots = 16
        while slots < 2 * capacity { slots *= 2 }
        keys = [UInt64](repeating: 0, count: slots)
        values = [CodeValue?](repeating: nil, count: slots)
        shift = UInt64(64 - slots.trailingZeroBitCount)
    }

    /// Adds `value` as code `id` of `table`, replacing an earlier value of the same code (a later
    /// row wins, as in `AircraftBundle.codesByText`). More values than the capacity are dropped.
    mutating func insert(_ table: AircraftSchema.CodeTable, id: UInt32, _ value: CodeValue) {
        let key = Self.key(table, id)
        var slot = firstSlot(key), probes = 0
        while keys[slot] != 0 && keys[slot] != key {
            probes += 1
            guard probes < keys.count / 2 else { return }   // past the capacity: never fill the table
            slot = (slot + 1) & (keys.count - 1)
        }
        keys[slot] = key
        values[slot] = value
    }

    /// The value of code `id` in `table`, nil when the table has no such code.
    @inline(__always)
    func value(_ table: AircraftSchema.CodeTable, id: UInt32) -> CodeValue? {
        let key = Self.key(table, id)
        var slot = firstSlot(key)
        // Ends: the table is never more than half full, so an empty slot comes.
        while keys[slot] != key {
            if keys[slot] == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
        return values[slot]
    }

    @inline(__always)
    private func firstSlot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

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
