import FieldGuideCore
import FieldGuideDiagnostics

/// Reads an Apple binary property list (`bplist00`: what `PropertyListSerialization`,
/// `NSUserDefaults` and `plutil -convert binary1` write) into the values the XML reader gives.
///
/// Every offset, count and reference is checked against the file before it is followed: a
/// crafted file is a `.malformed` error naming the object and its byte, never a trap or a read
/// past the end. A reference back to a container still being read (a cycle) is refused; nesting
/// is bounded like XML's, and so is the number of values made, since a shared object is made
/// again each time it is referred to (a few KB of arrays sharing arrays could mean billions): a
/// record is built whole, so it holds at most a million values; the file, in time, a million
/// and 64 for each of its objects.
///
/// A binary file has no lines: the position a record is reported at is its place in the
/// top-level array (1 for a top-level dictionary).
///
/// ```swift
/// try BinaryPropertyList.values(path: "captures.plist") { value, position in print(position, value) }
/// ```
public struct BinaryPropertyList {
    /// The largest binary property list read (whole, as its objects are found by offset):
    /// 256 MiB. An app's export is a few MB.
    public static let maximumBytes = 256 << 20
    /// Containers inside one another, at most: 256 (XML's bound is 257 elements, `<plist>` included).
    public static let maximumDepth = 256
    /// Values made from one file, at most: a million, and 64 more for each object in it (each use
    /// of a shared object counts; a writer shares repeated keys and strings, rarely more).
    public static func maximumValues(objects: Int) -> Int { 1_000_000 + 64 * objects }
    /// Values in one record (an element of the top-level array, or the top-level value), at most:
    /// a million (an app record holds tens). What memory a record takes is bounded by this.
    public static let maximumRecordValues = 1_000_000
    /// Bytes of data and text made from one record, and from the whole file, at most: 256 MiB
    /// and 1 GiB. A shared data object is copied each time it is referred to, and the value
    /// bounds alone would let a record copy a large one a million times.
    public static let maximumRecordBytes = 256 << 20, maximumFileBytesMade = 1 << 30
    /// The first eight bytes of the one version read.
    static let magic = Array("bplist00".utf8)

    let bytes: [UInt8]
    let file: String
    /// From the trailer: bytes an offset and a reference take, the objects, the root, the offset table.
    let offsetSize: Int, referenceSize: Int, objectCount: Int, root: Int, tableStart: Int
    /// Containers being read, innermost last (a cycle is a reference to one of them).
    private var open: [Int] = []
    private var made = 0, madeInRecord = 0, bytesMade = 0, bytesInRecord = 0

    /// Streams the records of the file at `path` (the elements of a top-level array or set, or
    /// the top-level value itself) with their positions.
    public static func values(path: String, displayName: String? = nil, _ body: (PropertyListValue, Int) -> Void) throws(LocatedError) {
        var reader = try opening(path: path, file: displayName ?? path)
        try reader.stream(body)
    }

    /// The file at `path` read (within ``maximumBytes``) and its trailer checked.
    static func opening(path: String, file: String) throws(LocatedError) -> BinaryPropertyList {
        try BinaryPropertyList(bytes: try BoundedRead.bytes(atPath: path, limit: maximumBytes, what: "a binary property list"), file: file)
    }

    init(bytes: [UInt8], file: String) throws(LocatedError) {
        self.bytes = bytes
        self.file = file
        guard bytes.starts(with: Self.magic) else {
            throw LocatedError(.unrecognized, file: file, expected: "bplist00", found: String(decoding: bytes.prefix(8), as: UTF8.self),
                               message: "not a binary property list this reader knows")
        }
        // The trailer: 6 unused bytes, the two sizes, then three 8-byte big-endian counts.
        guard bytes.count >= Self.magic.count + 1 + 1 + 32 else { throw Self.broken(file, "the file ends before its trailer (\(bytes.count) bytes)") }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        func count(_ at: Int, _ name: String) throws(LocatedError) -> Int {
            let value = Self.unsigned(bytes, at: at, size: 8)
            guard value <= UInt64(trailer) else { throw Self.broken(file, "the trailer's \(name) is \(value), past the file's \(trailer) bytes") }
            return Int(value)
        }
        (objectCount, root, tableStart) = (try count(trailer + 8, "object count"), try count(trailer + 16, "root object"), try count(trailer + 24, "offset table start"))
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Self.broken(file, "the trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) (expected 1 to 8 each)")
        }
        guard objectCount >= 1, root < objectCount else { throw Self.broken(file, "the root object is \(root) of \(objectCount)") }
        guard tableStart > Self.magic.count, objectCount <= (trailer - tableStart) / offsetSize else {
            throw Self.broken(file, "the offset table (\(objectCount) offsets at byte \(tableStart)) does not fit before the trailer")
        }
    }

    /// Hands on the root's elements (an array or a set) one at a time, or the root itself.
    mutating func stream(_ body: (PropertyListValue, Int) -> Void) throws(LocatedError) {
        let start = try offset(of: root)
        let type = bytes[start] >> 4
        guard type == 0xA || type == 0xC else { return body(try value(root), 1) }
        open.append(root)
        let (count, first) = try extent(at: start, object: root, unit: referenceSize)
        for i in 0..<count {
            (madeInRecord, bytesInRecord) = (0, 0)
            body(try value(try reference(at: first + i * referenceSize)), i + 1)
        }
        open.removeLast()
    }

    /// Object `index`: its value, containers read through their references.
    mutating func value(_ index: Int) throws(LocatedError) -> PropertyListValue {
        made += 1
        madeInRecord += 1
        guard madeInRecord <= Self.maximumRecordValues else {
            throw LocatedError(.tooLarge, file: file, message: "binary property list: a record of more than \(Self.maximumRecordValues) values "
                               + "(objects shared over and over?)")
        }
        guard made <= Self.maximumValues(objects: objectCount) else {
            throw LocatedError(.tooLarge, file: file, message: "binary property list: more than \(Self.maximumValues(objects: objectCount)) values "
                               + "from \(objectCount) objects (objects shared over and over?)")
        }
        let start = try offset(of: index)
        let marker = bytes[start], info = Int(marker & 0xF), file = file   // `bad` holds no `self`: the containers change it
        let bad = { (message: String) in Self.broken(file, "object \(index) at byte \(start): \(message)") }
        switch marker >> 4 {
        case 0x0 where info == 0x8 || info == 0x9: return .boolean(info == 0x9)
        case 0x1: return .integer(try integer(at: start + 1, sizeLog: info, bad))
        case 0x2 where info == 2 || info == 3:
            try need(start + 1, 1 << info, bad)
            let bits = Self.unsigned(bytes, at: start + 1, size: 1 << info)
            let real = info == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            guard real.isFinite else { throw bad("expected a finite real number, found \(real)") }
            return .real(real)
        case 0x3 where info == 3:
            try need(start + 1, 8, bad)
            let seconds = Double(bitPattern: Self.unsigned(bytes, at: start + 1, size: 8))
            guard let text = Self.isoDate(sinceReferenceDate: seconds) else { throw bad("expected a date in years 1 to 9999, found \(seconds) seconds from 2001") }
            return .date(text)
        case 0x4:
            let (count, first) = try extent(at: start, object: index, unit: 1)
            try spend(count)
            return .data(Array(bytes[first..<first + count]))
        case 0x5:
            let (count, first) = try extent(at: start, object: index, unit: 1)
            try spend(count)
            let text = bytes[first..<first + count]
            guard text.allSatisfy({ $0 < 0x80 }) else { throw bad("expected an ASCII string, found a byte past 0x7F") }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let (count, first) = try extent(at: start, object: index, unit: 2)
            try spend(2 * count)
            let units = bytes[first..<first + 2 * count].withUnsafeBufferPointer { raw in
                (0..<count).map { UInt16(raw[2 * $0]) << 8 | UInt16(raw[2 * $0 + 1]) }
            }
            guard let text = String(validating: units, as: UTF16.self) else { throw bad("expected UTF-16 text, found an unpaired surrogate") }
            return .string(text)
        case 0x8: throw bad("expected a value, found a UID (an NSKeyedArchiver archive, not an export)")
        case 0xA, 0xC:
            let (count, first) = try enter(index, at: start, bad)
            defer { open.removeLast() }
            var items: [PropertyListValue] = []
            items.reserveCapacity(min(count, 4_096))   // not from the file's word alone: the values are counted as made
            for i in 0..<count { items.append(try value(try reference(at: first + i * referenceSize))) }
            return .array(items)
        case 0xD:
            let (count, first) = try enter(index, at: start, bad)
            defer { open.removeLast() }
            try need(first, count * referenceSize * 2, bad)   // the keys' references, then the values'
            var entries: [(key: String, value: PropertyListValue)] = []
            entries.reserveCapacity(min(count, 4_096))
            for i in 0..<count {
                let keyIndex = try reference(at: first + i * referenceSize)
                guard case .string(let key) = try value(keyIndex) else { throw bad("key \(i + 1) (object \(keyIndex)) is not a string") }
                entries.append((key, try value(try reference(at: first + (count + i) * referenceSize))))
            }
            return .dictionary(entries)
        default: throw bad("expected a property list value, found the marker \(Self.hex(marker))")
        }
    }

    /// A container's length and first reference, the container marked open: refused when it is
    /// open already (a cycle) or would be nested too deep. The caller closes it (`open.removeLast()`).
    private mutating func enter(_ index: Int, at start: Int, _ bad: (String) -> LocatedError) throws(LocatedError) -> (count: Int, first: Int) {
        guard !open.contains(index) else { throw bad("it contains itself (a cycle through its references)") }
        guard open.count < Self.maximumDepth else { throw bad("nested more than \(Self.maximumDepth) containers deep") }
        let extent = try extent(at: start, object: index, unit: referenceSize)
        open.append(index)
        return extent
    }

    /// Counts `count` bytes of data or text about to be copied against the record's and the file's bounds.
    private mutating func spend(_ count: Int) throws(LocatedError) {
        (bytesInRecord, bytesMade) = (bytesInRecord + count, bytesMade + count)   // each at most a bound plus 256 MiB: no overflow
        guard bytesInRecord <= Self.maximumRecordBytes, bytesMade <= Self.maximumFileBytesMade else {
            throw LocatedError(.tooLarge, file: file, message: "binary property list: more than "
                               + (bytesInRecord > Self.maximumRecordBytes ? "256 MiB of data and text in a record" : "1 GiB of data and text in the file")
                               + " (objects shared over and over?)")
        }
    }

    /// Where object `index` starts, checked to lie among the objects.
    func offset(of index: Int) throws(LocatedError) -> Int {
        let at = tableStart + index * offsetSize   // index < objectCount, so inside the table
        let offset = Self.unsigned(bytes, at: at, size: offsetSize)
        guard offset >= UInt64(Self.magic.count), offset < UInt64(tableStart) else {
            throw Self.broken(file, "object \(index) is said to start at byte \(offset), outside the objects (bytes 8 to \(tableStart - 1))")
        }
        return Int(offset)
    }

    /// The object index a reference at byte `at` names, checked against the object count.
    func reference(at: Int) throws(LocatedError) -> Int {
        let index = Self.unsigned(bytes, at: at, size: referenceSize)
        guard index < UInt64(objectCount) else { throw Self.broken(file, "a reference at byte \(at) names object \(index) of \(objectCount)") }
        return Int(index)
    }

    /// An object's length (from its marker, or the integer after it for 15 and more) and where its
    /// content starts, checked to fit `unit`-byte items before the offset table.
    func extent(at start: Int, object: Int, unit: Int) throws(LocatedError) -> (count: Int, first: Int) {
        func bad(_ message: String) -> LocatedError { Self.broken(file, "object \(object) at byte \(start): \(message)") }
        var count = Int(bytes[start] & 0xF), first = start + 1
        if count == 0xF {
            try need(first, 1, bad)
            let marker = bytes[first]
            guard marker >> 4 == 0x1, marker & 0xF <= 3 else { throw bad("expected a length as an integer, found the marker \(Self.hex(marker))") }
            let length = try integer(at: first + 1, sizeLog: Int(marker & 0xF), bad)
            guard length >= 0 else { throw bad("a negative length \(length)") }
            (count, first) = (Int(length), first + 1 + (1 << Int(marker & 0xF)))
        }
        guard first <= tableStart, count <= (tableStart - first) / unit else {
            throw bad("\(count) items of \(unit) bytes from byte \(first) run past the objects (they end at byte \(tableStart))")
        }
        return (count, first)
    }

    /// A big-endian integer of `1 << sizeLog` bytes: 1, 2 and 4 unsigned, 8 signed, 16 when
    /// it fits in a signed 64-bit integer (CF writes values past `Int64.max` so: refused, as the
    /// XML reader refuses them).
    func integer(at start: Int, sizeLog: Int, _ bad: (String) -> LocatedError) throws(LocatedError) -> Int64 {
        guard sizeLog <= 4 else { throw bad("an integer of \(1 << min(sizeLog, 15)) bytes (expected 1, 2, 4, 8 or 16)") }
        try need(start, 1 << sizeLog, bad)
        if sizeLog < 4 { return Int64(bitPattern: Self.unsigned(bytes, at: start, size: 1 << sizeLog)) }
        let high = Self.unsigned(bytes, at: start, size: 8), low = Self.unsigned(bytes, at: start + 8, size: 8)
        let value = Int64(bitPattern: low)
        guard (high == 0 && value >= 0) || (high == .max && value < 0) else { throw bad("expected a signed 64-bit integer") }
        return value
    }

    /// Refuses `count` bytes from `start` that do not lie before the offset table.
    func need(_ start: Int, _ count: Int, _ bad: (String) -> LocatedError) throws(LocatedError) {
        guard start <= tableStart, count <= tableStart - start else { throw bad("its \(count) bytes run past the objects") }
    }

    /// `size` bytes big-endian from `at` (the caller has checked they are in the file).
    static func unsigned(_ bytes: [UInt8], at: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        return value
    }

    /// `0x0A`: a marker byte as the format's documents write it.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    /// A date as the XML form writes it (`2013-02-22T12:49:10Z`), from seconds since
    /// 2001-01-01 UTC; whole seconds, as the XML writer keeps. Nil outside years 1 to 9999.
    static func isoDate(sinceReferenceDate seconds: Double) -> String? {
        let unix = (seconds + 978_307_200).rounded(.down)
        guard unix.isFinite, unix >= -62_135_596_800, unix <= 253_402_300_799 else { return nil }
        let total = Int(unix)
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400), second = total - days * 86_400
        // Days since 1970-01-01 to a civil date (H. Hinnant's days_from_civil, inverted).
        let z = days + 719_468, era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = String(year), paddedYear = String(repeating: "0", count: max(0, 4 - y.count)) + y
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    static func broken(_ file: String, _ message: String) -> LocatedError {
        LocatedError(.malformed, file: file, message: "binary property list: " + message)
    }
}
