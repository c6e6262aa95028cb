import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideWorkers
import Foundation

/// Builds a row table: rows of `UInt32` values stored flat, string columns remapped and rows
/// sorted before serialization.
///
/// ```swift
/// var table = RowTableBuilder<EngineColumn>()
/// let row = table.appendRow()
/// table[row, .code] = pool.intern("17020")
/// ```
public struct RowTableBuilder<Column: RowColumn>: Sendable {
    public let layout = RowLayout<Column>()
    // The stage builders read and write millions of cells through the subscript from other
    // modules: inlinable, so it is specialized and inlined there instead of a generic call a cell.
    @usableFromInline let width = Column.allCases.count
    private let absent = Column.allCases.map { $0.kind.absent }
    /// Row-major values: row `r`, column `c` at `r * width + c`.
    @usableFromInline var values: [UInt32] = []

    public init() {}

    @inlinable public var count: Int { values.count / width }

    /// Reserves room for `rows` rows.
    public mutating func reserve(_ rows: Int) { values.reserveCapacity(rows * width) }

    /// Calls `body` with each table's values, row-major (`rowWidth` a row, column `c` of row `r`
    /// at `r * rowWidth + c`), valid during the call: for passes over millions of cells in an
    /// order of their own, which read a table through an array of tables without copying one.
    public static func withValues<Result>(of tables: [Self], _ body: ([UnsafeBufferPointer<UInt32>]) throws -> Result) rethrows -> Result {
        func borrow(from index: Int, _ borrowed: [UnsafeBufferPointer<UInt32>]) throws -> Result {
            guard index < tables.count else { return try body(borrowed) }
            return try tables[index].values.withUnsafeBufferPointer { try borrow(from: index + 1, borrowed + [$0]) }
        }
        return try borrow(from: 0, [])
    }

    /// Appends a row with every column absent; returns its index.
    public mutating func appendRow() -> Int {
        values.append(contentsOf: absent)
        return count - 1
    }

    @inlinable
    public subscript(row: Int, column: Column) -> UInt32 {
        get { values[row * width + column.rawValue] }
        set { values[row * width + column.rawValue] = newValue }
    }

    /// Column `column` of every row, in row order (one call instead of a subscript per row).
    public func values(of column: Column) -> [UInt32] {
        let width = self.width, offset = column.rawValue
        return values.withUnsafeBufferPointer { v in (0..<count).map { v[$0 * width + offset] } }
    }

    /// A row with every column absent, to fill in and `append` (for small tables).
    public func newRow() -> Row { Row(values: absent) }

    /// Appends a row made by `newRow()`.
    public mutating func append(_ row: Row) { values.append(contentsOf: row.values) }

    /// The number of values in a row (for sizing a `RowBuffer`'s memory).
    public var rowWidth: Int { width }

    /// A row in `memory` (at least `rowWidth` values) with every column absent, to fill in and
    /// `append`: for large tables, no allocation per row.
    public func rowBuffer(in memory: UnsafeMutableBufferPointer<UInt32>) -> RowBuffer<Column> {
        precondition(memory.count >= width, "a row needs \(width) values")
        let values = UnsafeMutableBufferPointer(rebasing: memory[0..<width])
        _ = values.initialize(from: absent)
        return RowBuffer(values: values)
    }

    /// Appends a row filled in through a `RowBuffer`.
    public mutating func append(_ row: RowBuffer<Column>) {
        values.append(contentsOf: UnsafeBufferPointer(row.values))
    }

    /// Applies the string pool's final ids to every string column.
    public mutating func remapStrings(_ remap: [UInt32]) {
        let stringColumns = Column.allCases.filter { $0.kind == .string }.map(\.rawValue)
        let width = self.width, rows = count
        remap.withUnsafeBufferPointer { remap in
            values.withUnsafeMutableBufferPointer { values in
                for r in 0..<rows {
                    let row = r * width
                    for c in stringColumns { values[row + c] = remap[Int(values[row + c])] }
                }
            }
        }
    }

    /// Sorts rows by the given columns, ascending and stable (after remapping, string ids
    /// sort as their strings). Returns `old row → new row`.
    @discardableResult
    public mutating func sort(by columns: [Column]) -> [Int] {
        let keys = columns.map(\.rawValue)
        let width = self.width, rows = count
        var order: [UInt32]
        if keys.count <= 2 {
            // Up to two 32-bit columns make one 64-bit key: a stable radix sort on it is the
            // stable sort by those columns.
            var packed = [UInt64](repeating: 0, count: rows)
            order = [UInt32](repeating: 0, count: rows)
            values.withUnsafeBufferPointer { v in
                for r in 0..<rows {
                    let high = UInt64(v[r * width + keys[0]]) << 32
                    packed[r] = keys.count == 2 ? high | UInt64(v[r * width + keys[1]]) : high
                    order[r] = UInt32(r)
                }
            }
            RadixSort.sort(keys: &packed, values: &order)
        } else {
            order = values.withUnsafeBufferPointer { v in
                (0..<UInt32(rows)).sorted { a, b in
                    let a = Int(a), b = Int(b)
                    for k in keys where v[a * width + k] != v[b * width + k] { return v[a * width + k] < v[b * width + k] }
                    return a < b
                }
            }
        }
        var newIndex = [Int](repeating: 0, count: rows)
        let sorted = [UInt32](unsafeUninitializedCapacity: values.count) { out, initialized in
            values.withUnsafeBufferPointer { v in
                for (new, old) in order.enumerated() {
                    let old = Int(old)
                    (out.baseAddress! + new * width).initialize(from: v.baseAddress! + old * width, count: width)
                    newIndex[old] = new
                }
            }
            initialized = rows * width
        }
        values = sorted
        return newIndex
    }

    /// The section bytes.
    public func serialize() -> [UInt8] {
        Self.serialize([self], order: Array(0..<UInt32(count)))
    }

    /// The section bytes of the rows of `tables` taken as one table (each table's rows after
    /// the previous one's), in `order` (`order[i]` is the row that goes `i`th): a concatenation,
    /// a sort and `serialize()` in one pass, without a copy of the tables.
    ///
    /// From `parallelSerializeThreshold` rows on, two threads write a half of the rows each.
    public static func serialize(_ tables: [Self], order: [UInt32]) -> [UInt8] {
        let starts = tables.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
        precondition(order.count == starts.last!, "one position per row")
        let layout = RowLayout<Column>(), width = Column.allCases.count, stride = layout.stride
        let columns = Column.allCases.map { (index: $0.rawValue, width: $0.kind.width) }
        return [UInt8](unsafeUninitializedCapacity: order.count * stride) { out, initialized in
            tables.map(\.values).withUnsafeBufferPointers { values in
                // The threads write disjoint stretches of `out` and only read the rest.
                let shared = UncheckedSendable(value: (out: UnsafeMutableRawBufferPointer(out), values: values))
                let pieces = order.count >= parallelSerializeThreshold ? 2 : 1
                _ = Concurrently.run(pieces) { piece in
                    let (raw, values) = shared.value
                    let positions = order.count * piece / pieces..<order.count * (piece + 1) / pieces
                    var cursor = positions.lowerBound * stride
                    for old in order[positions] {
                        var table = 0
                        while Int(old) >= starts[table + 1] { table += 1 }
                        let v = values[table], row = (Int(old) - starts[table]) * width
                        for column in columns {
                            let value = v[row + column.index]
                            switch column.width {
                            case 1: raw.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: cursor, as: UInt8.self)
                            case 2: raw.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: cursor, as: UInt16.self)
                            default: raw.storeBytes(of: value.littleEndian, toByteOffset: cursor, as: UInt32.self)
                            }
                            cursor += column.width
                        }
                    }
                }
            }
            initialized = order.count * stride
        }
    }

    /// Tables of at least this many rows are serialized on two threads.
    public static var parallelSerializeThreshold: Int { 50_000 }

    public struct Row {
        public var values: [UInt32]
        public subscript(column: Column) -> UInt32 {
            get { values[column.rawValue] }
            set { values[column.rawValue] = newValue }
        }
    }
}

/// One row of a `RowTableBuilder` in caller-provided memory, made by `rowBuffer(in:)`.
///
/// ```swift
/// withUnsafeTemporaryAllocation(of: UInt32.self, capacity: table.rowWidth) { memory in
///     let row = table.rowBuffer(in: memory)
///     row[.code] = pool.intern("17020")
///     table.append(row)
/// }
/// ```
public struct RowBuffer<Column: RowColumn> {
    public let values: UnsafeMutableBufferPointer<UInt32>

    init(values: UnsafeMutableBufferPointer<UInt32>) { self.values = values }

    public subscript(column: Column) -> UInt32 {
        get { values[column.rawValue] }
        nonmutating set { values[column.rawValue] = newValue }
    }
}

/// A read-only view of a row table inside a mapped section.
