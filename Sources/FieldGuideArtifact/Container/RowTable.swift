import CPrefetch

/// The width and meaning of one column of a fixed-width row table.
public enum ColumnKind: Sendable {
    case u8, u16, u32
    /// A `StringPool` id (u32); remapped when the pool is sorted.
    case string

    public var width: Int {
        switch self {
        case .u8: return 1
        case .u16: return 2
        case .u32, .string: return 4
        }
    }

    /// The value meaning "absent" for a number column.
    public var absent: UInt32 {
        switch self {
        case .u8: return UInt32(UInt8.max)
        case .u16: return UInt32(UInt16.max)
        case .u32: return UInt32.max
        case .string: return 0
        }
    }
}

/// The columns of a row table, declared as an enum in schema order.
///
/// ```swift
/// enum EngineColumn: Int, RowColumn {
///     case code, manufacturer, horsepower
///     var kind: ColumnKind { self == .horsepower ? .u32 : .string }
/// }
/// ```
public protocol RowColumn: CaseIterable, Sendable where AllCases == [Self] {
    var rawValue: Int { get }
    var kind: ColumnKind { get }
}

/// A row table whose columns are all `u32` numbers (row numbers, counts, ids of another
/// pool): the conformance says so once instead of each enum spelling `kind`.
///
/// ```swift
/// enum ModeSColumn: Int, U32RowColumn { case address, registrationRow }
/// ```
public protocol U32RowColumn: RowColumn {}

extension U32RowColumn {
    @inlinable public var kind: ColumnKind { .u32 }
}

/// A row table whose columns are all `StringPool` ids.
///
/// ```swift
/// enum ShapeColumn: Int, StringRowColumn { case id, name, icon }
/// ```
public protocol StringRowColumn: RowColumn {}

extension StringRowColumn {
    @inlinable public var kind: ColumnKind { .string }
}

/// Column offsets for a `RowColumn` type, computed once.
public struct RowLayout<Column: RowColumn>: Sendable {
    public let stride: Int
    public let offsets: [Int]

    public init() {
        var offsets: [Int] = []
        var cursor = 0
        for column in Column.allCases {
            offsets.append(cursor)
            cursor += column.kind.width
        }
        self.offsets = offsets
        self.stride = cursor
    }
}

/// A row table read from a mapped section: fixed-width rows of `UInt32` values.
///
/// ```swift
/// let engines = try RowTable(file.section(AircraftSchema.Section.engines), layout: RowLayout<EngineColumn>(),
///                            tag: AircraftSchema.Section.engines, path: file.path)
/// engines.value(0, .code)     // a string id in the pool
/// ```
public struct RowTable<Column: RowColumn>: @unchecked Sendable {
    public let layout: RowLayout<Column>
    public let count: Int
    @usableFromInline let base: UnsafeRawPointer?

    public init(_ section: UnsafeRawBufferPointer, layout: RowLayout<Column>, tag: FourCC, path: String) throws(ArtifactError) {
        guard layout.stride > 0, section.count % layout.stride == 0 else {
            throw .malformedSection(path: path, section: tag.description,
                                    reason: "\(section.count) bytes is not a whole number of \(layout.stride)-byte rows")
        }
        self.layout = layout
        self.count = section.count / layout.stride
        self.base = section.baseAddress
    }

    /// Starts loading row `row`'s cache lines, without waiting for them; nothing for a row
    /// outside the table (a prefetch never faults, but a row from the file is never trusted
    /// as an address either).
    @inlinable @inline(__always)
    public func prefetch(_ row: Int) {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let base else { return }
        let start = base + row * layout.stride
        var line = 0
        while line < layout.stride {
            fieldguide_prefetch(start + line)
            line += 64
        }
        fieldguide_prefetch(start + (layout.stride - 1))
    }

    /// Column `column` of row `row` (absent numbers read as `column.kind.absent`).
    ///
    /// A row outside the table reads as absent: row numbers come from the file itself (one
    /// section's column pointing into another), and a crafted file whose checksums are all
    /// valid must give wrong text, never a read outside the mapping. One predictable compare.
    @inlinable
    public func value(_ row: Int, _ column: Column) -> UInt32 {
        guard UInt(bitPattern: row) < UInt(bitPattern: count) else { return column.kind.absent }
        let pointer = base! + row * layout.stride + layout.offsets[column.rawValue]
        switch column.kind {
        case .u8: return UInt32(pointer.load(as: UInt8.self))
        case .u16: return UInt32(UInt16(littleEndian: pointer.loadUnaligned(as: UInt16.self)))
        case .u32, .string: return UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self))
        }
    }

    /// Column value, or nil when it holds the absent sentinel.
    @inlinable
    public func number(_ row: Int, _ column: Column) -> Int? {
        let v = value(row, column)
        return v == column.kind.absent ? nil : Int(v)
    }

    /// The first row whose `column` is not less than `key` (rows sorted by that column).
    @inlinable
    public func lowerBound(_ column: Column, _ key: UInt32) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if value(mid, column) < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The row whose `column` equals `key` (rows sorted by that column), if any.
    @inlinable
    public func find(_ column: Column, _ key: UInt32) -> Int? {
        let index = lowerBound(column, key)
        return index < count && value(index, column) == key ? index : nil
    }
}
