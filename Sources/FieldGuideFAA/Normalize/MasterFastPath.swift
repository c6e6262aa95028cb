import FieldGuideCSV

/// The common case of MASTER normalization, straight from field bytes to `registrations.csv`
/// bytes: no `String`, no `Registration`, no code-table dictionaries.
///
/// It accepts only records that `FAANormalizer.registration` would keep without a single
/// warning, and writes exactly the bytes `NormalizedFAA.fields(_:)` and `CSVWriter` would. For
/// anything else (non-ASCII bytes, an unknown code, a bad date, a shifted column …) it writes
/// nothing and returns nil, and the caller takes the general path, which finds and words the
/// issues. `MasterFastPathTests` holds the two paths to the same output.
///
/// ```swift
/// if let row = MasterFastPath.normalize(record, into: &writer) { … } else { /* FAANormalizer.registration */ }
/// ```
enum MasterFastPath {
    /// What the ingest needs of a kept row besides its CSV bytes.
    struct Row {
        /// `PackedKey`-style big-endian packing of the N-number (`N` + at most 5 characters).
        var nNumber: UInt64
        /// Packed model and engine codes (join keys; at most 7 and 5 ASCII bytes).
        var modelCode: UInt64
        var engineCode: UInt64
        var engineCodeIsEmpty: Bool
        var hasModeS: Bool
    }

    typealias Bytes = UnsafeRawBufferPointer
    private static let columns = FAALayout.master
    private static let widths = FAALayout.master.map(\.width)

    /// Normalizes `record` into `writer` (one CSV line), or returns nil having written nothing.
    static func normalize(_ record: CSVRecord, into writer: inout CSVWriter) -> Row? {
        record.withUnsafeFields { fields in
            guard isPlain(fields) else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { scratch in
                normalize(fields, scratch: UnsafeMutableRawBufferPointer(scratch), into: &writer)
            }
        }
    }

    /// The shape checks of `FieldReader` for a printable ASCII record: 34 fields (plus an empty
    /// one for the trailing comma), none wider than the layout (ASCII: bytes are characters).
    /// A control character (a tab too) sends the record the general way, whose `FieldReader`
    /// replaces it and warns.
    private static func isPlain(_ fields: UnsafeCSVFields) -> Bool { isPlain(fields, widths: widths) }

    /// `isPlain` for any layout's column widths.
    static func isPlain(_ fields: UnsafeCSVFields, widths: [Int]) -> Bool {
        let expected = widths.count
        guard fields.count == expected || (fields.count == expected + 1 && fields[expected].isEmpty) else { return false }
        guard FileText.isPrintableASCII(fields.bytes) else { return false }
        return widths.withUnsafeBufferPointer { widths in
            for i in 0..<expected where fields[i].count > widths[i] { return false }
            return true
        }
    }

    private static func normalize(_ f: UnsafeCSVFields, scratch: UnsafeMutableRawBufferPointer, into writer: inout CSVWriter) -> Row? {
        // Everything is checked before anything is written.
        let mark = trimmed(f[0])
        guard isValidMark(mark) else { return nil }
        let year = trimmed(f[4])
        guard year.allSatisfy(isDigit) else { return nil }
        guard known(f[5], FAACodeTables.registrantType), known(f[12], FAACodeTables.region),
              known(f[18], FAACodeTables.aircraftType), known(f[19], FAACodeTables.engineType),
              known(f[20], FAACodeTables.status) else { return nil }
        guard let lastAction = date(f[15]), let certificateIssue = date(f[16]),
              let airworthinessDate = date(f[23]), let expiration = date(f[29]) else { return nil }
        guard let airworthiness = airworthiness(f[17]) else { return nil }
        let fractional = trimmed(f[22])
        guard fractional.isEmpty || (fractional.count == 1 && fractional[0] == UInt8(ascii: "Y")) else { return nil }
        guard let modeS = modeS(octal: trimmed(f[21]), hex: trimmed(f[33])) else { return nil }

        var cursor = 0
        /// Appends `bytes` to the scratch buffer (fields assembled from pieces live there).
        func put(_ bytes: Bytes) {
            guard !bytes.isEmpty else { return }
            (scratch.baseAddress! + cursor).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            cursor += bytes.count
        }
        func put(_ byte: UInt8) {
            scratch[cursor] = byte
            cursor += 1
        }
        func piece(from start: Int) -> Bytes { Bytes(rebasing: scratch[start..<cursor]) }

        var start = cursor
        put(UInt8(ascii: "N"))
        put(mark)
        let nNumber = piece(from: start)
        writer.writeField(nNumber)
        writer.writeField(trimmed(f[1]))
        let modelCode = trimmed(f[2]), engineCode = trimmed(f[3])
        writer.writeField(modelCode)
        writer.writeField(engineCode)
        writer.writeField(decimal(year, scratch: scratch, cursor: &cursor))
        for i in 5...11 {
            let text = trimmed(f[i])
            writer.writeField(i == 11 ? zip(text, scratch: scratch, cursor: &cursor) : text)
        }
        for i in 12...14 { writer.writeField(trimmed(f[i])) }
        writer.writeField(format(lastAction, scratch: scratch, cursor: &cursor))
        writer.writeField(format(certificateIssue, scratch: scratch, cursor: &cursor))
        writer.writeField(trimmed(f[17]))
        if airworthiness == 0 {
            writer.writeField(Bytes(start: nil, count: 0))
            writer.writeField(Bytes(start: nil, count: 0))
        } else {
            start = cursor
            put(airworthiness)
            writer.writeField(piece(from: start))
            writer.writeField(operations(f[17], scratch: scratch, cursor: &cursor))
        }
        for i in 18...20 { writer.writeField(trimmed(f[i])) }
        writer.writeField(modeS.map { hex6($0, scratch: scratch, cursor: &cursor) } ?? Bytes(start: nil, count: 0))
        writer.writeField(fractional)
        writer.writeField(format(airworthinessDate, scratch: scratch, cursor: &cursor))
        start = cursor
        for i in 24...28 {
            let name = trimmed(f[i])
            if name.isEmpty { continue }
            if cursor > start { put(UInt8(ascii: "|")) }
            put(name)
        }
        writer.writeField(piece(from: start))
        writer.writeField(format(expiration, scratch: scratch, cursor: &cursor))
        for i in 30...32 { writer.writeField(trimmed(f[i])) }
        writer.endRecord()

        return Row(nNumber: pack(nNumber), modelCode: pack(modelCode), engineCode: pack(engineCode),
                   engineCodeIsEmpty: engineCode.isEmpty, hasModeS: modeS != nil)
    }

    // MARK: Fields

    /// `FieldReader.text`: spaces and tabs trimmed at both ends.
    @inline(__always)
    static func trimmed(_ field: Bytes) -> Bytes {
        var start = 0, end = field.count
        while start < end, field[start] == 0x20 || field[start] == 0x09 { start += 1 }
        while end > start, field[end - 1] == 0x20 || field[end - 1] == 0x09 { end -= 1 }
        return Bytes(rebasing: field[start..<end])
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `FAANormalizer.markProblem(mark) == nil`, and not blank.
    static func isValidMark(_ mark: Bytes) -> Bool {
        guard mark.count >= 1, mark.count <= 5, mark[0] >= 0x31, mark[0] <= 0x39 else { return false }
        var letters = 0
        for byte in mark.dropFirst() {
            let isLetter = byte >= 0x41 && byte <= 0x5A && byte != 0x49 && byte != 0x4F
            if isDigit(byte) {
                if letters > 0 { return false }
            } else if isLetter {
                letters += 1
            } else {
                return false
            }
        }
        return letters <= 2
    }

    /// A blank code, or one its table lists (an unknown code is a warning: general path).
    static func known(_ field: Bytes, _ table: FAACodeTable) -> Bool {
        let code = trimmed(field)
        return code.isEmpty || table.contains(code)
    }

    /// `FieldReader.date`: blank (only trailing spaces are trimmed) is `0`, a real `YYYYMMDD`
    /// date is that number, anything else nil.
    static func date(_ field: Bytes) -> Int? {
        var end = field.count
        while end > 0, field[end - 1] == 0x20 { end -= 1 }
        if end == 0 { return 0 }
        guard end == 8 else { return nil }
        var n = 0
        for i in 0..<8 {
            guard isDigit(field[i]) else { return nil }
            n = n * 10 + Int(field[i] - 0x30)
        }
        guard FAADate(year: n / 10_000, month: n / 100 % 100, day: n % 100) != nil else { return nil }
        return n
    }

    /// `YYYY-MM-DD`, or nothing for a blank date; `date` is `date(_:)`'s, at most eight digits
    /// (a longer one gives its last eight).
    ///
    /// Made as one word and two bytes, each digit a division by a constant (a multiply): a loop
    /// over the ten positions, testing each for a dash, took about 230 instructions a date
    /// (callgrind; four dates a MASTER row, four or two a DEREG or RESERVED one). Before that a
    /// division by a varying divisor per digit was ~3% of ingest-faa's CPU time.
    static func format(_ date: Int, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        if date == 0 { return Bytes(start: nil, count: 0) }
        let start = cursor
        let n = UInt64(truncatingIfNeeded: date) % 100_000_000
        @inline(__always) func digit(_ place: UInt64) -> UInt64 { 0x30 + n / place % 10 }
        let dash: UInt64 = 0x2D
        let first = digit(10_000_000) | digit(1_000_000) << 8 | digit(100_000) << 16 | digit(10_000) << 24
            | dash << 32 | digit(1_000) << 40 | digit(100) << 48 | dash << 56
        scratch.storeBytes(of: first.littleEndian, toByteOffset: start, as: UInt64.self)
        scratch.storeBytes(of: UInt8(truncatingIfNeeded: digit(10)), toByteOffset: start + 8, as: UInt8.self)
        scratch.storeBytes(of: UInt8(truncatingIfNeeded: digit(1)), toByteOffset: start + 9, as: UInt8.self)
        cursor = start + 10
        return Bytes(rebasing: scratch[start..<cursor])
    }

    /// `FieldReader.integer` written back as `String(n)`: leading zeros dropped.
    static func decimal(_ digits: Bytes, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        guard !digits.isEmpty else { return digits }
        var start = 0
        while start < digits.count - 1, digits[start] == 0x30 { start += 1 }
        return Bytes(rebasing: digits[start...])
    }

    /// `FAANormalizer.zip`: nine digits become ZIP+4.
    static func zip(_ text: Bytes, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        guard text.count == 9, text.allSatisfy(isDigit) else { return text }
        let start = cursor
        for (i, byte) in text.enumerated() {
            if i == 5 { scratch[cursor] = UInt8(ascii: "-"); cursor += 1 }
            scratch[cursor] = byte
            cursor += 1
        }
        return Bytes(rebasing: scratch[start..<cursor])
    }

    /// `FAANormalizer.modeS` without a rejection: `.some(nil)` when both fields are blank.
    static func modeS(octal: Bytes, hex: Bytes) -> UInt32?? {
        if octal.isEmpty && hex.isEmpty { return .some(nil) }
        var fromOctal: UInt32?, fromHex: UInt32?
        if !octal.isEmpty {
            guard octal.count <= 8 else { return nil }  // 8 octal digits are 24 bits: never overflows
            var n: UInt32 = 0
            for byte in octal {
                guard byte >= 0x30, byte <= 0x37 else { return nil }
                n = n << 3 | UInt32(byte - 0x30)
            }
            fromOctal = n
        }
        if !hex.isEmpty {
            guard hex.count <= 8 else { return nil }
            var n: UInt32 = 0
            for byte in hex {
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                n = n << 4 | UInt32(digit)
            }
            fromHex = n
        }
        if let fromOctal, let fromHex, fromOctal != fromHex { return nil }
        let value = fromHex ?? fromOctal!
        guard value <= 0xFF_FFFF else { return nil }
        return .some(value)
    }

    /// `Registration.modeSHex`: six upper-case hex digits.
    static func hex6(_ value: UInt32, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        let start = cursor
        for shift in stride(from: 20, through: 0, by: -4) {
            let digit = UInt8((value >> UInt32(shift)) & 0xF)
            scratch[cursor] = digit < 10 ? 0x30 + digit : 0x41 + digit - 10
            cursor += 1
        }
        return Bytes(rebasing: scratch[start..<cursor])
    }

    // MARK: Airworthiness

    /// The class byte (0 when the field is blank or starts with a space), or nil when the class
    /// or one of its operation codes is unknown (a warning: general path).
    private static func airworthiness(_ raw: Bytes) -> UInt8? {
        guard let first = raw.first, first != 0x20 else { return 0 }
        guard first >= 0x31, first <= 0x39 else { return nil }  // FAACodeTables.airworthinessClass
        var allKnown = true
        forEachOperation(classByte: first, Bytes(rebasing: raw[1...])) { _, known in
            if !known { allKnown = false }
        }
        return allKnown ? first : nil
    }

    /// The operation codes joined with `|`, as `NormalizedFAA.fields` writes them.
    private static func operations(_ raw: Bytes, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        let start = cursor
        var position = cursor
        forEachOperation(classByte: raw[0], Bytes(rebasing: raw[1...])) { code, _ in
            if position > start { scratch[position] = UInt8(ascii: "|"); position += 1 }
            for byte in code { scratch[position] = byte; position += 1 }
        }
        cursor = position
        return Bytes(rebasing: scratch[start..<cursor])
    }

    /// `FAANormalizer.airworthiness`'s decoding: spaces skipped, each other byte a code, and for
    /// class 4 an `8` or `9` followed by `A`…`E` one two-byte code; class 6 reads its first two
    /// positions as classes and the rest as restricted operations.
    private static func forEachOperation(classByte: UInt8, _ rest: Bytes, _ body: (Bytes, Bool) -> Void) {
        var index = 0
        while index < rest.count {
            let byte = rest[index]
            if byte == 0x20 { index += 1; continue }
            var length = 1
            if classByte == UInt8(ascii: "4"), byte == 0x38 || byte == 0x39, index + 1 < rest.count,
               (0x41...0x45).contains(rest[index + 1]) {
                length = 2
            }
            let code = Bytes(rebasing: rest[index..<(index + length)])
            body(code, isKnownOperation(classByte: classByte, code, position: index))
            index += length
        }
    }

    private static func isKnownOperation(classByte: UInt8, _ code: Bytes, position: Int) -> Bool {
        let first = code[0]
        if code.count == 2 {  // experimental 8A…8C, 9A…9E
            return (first == 0x38 && code[1] <= 0x43) || first == 0x39
        }
        switch classByte {
        case UInt8(ascii: "1"): return "NUATGBCO".utf8.contains(first)
        case UInt8(ascii: "3"): return first >= 0x30 && first <= 0x37
        case UInt8(ascii: "4"): return first >= 0x30 && first <= 0x37
        case UInt8(ascii: "5"): return first == 0x31 || first == 0x32
        case UInt8(ascii: "6"): return position < 2 ? (first >= 0x31 && first <= 0x33) : (first >= 0x30 && first <= 0x37)
        case UInt8(ascii: "8"): return first >= 0x31 && first <= 0x36
        case UInt8(ascii: "9"): return "AGLPW".utf8.contains(first)
        default: return false  // Limited and Primary take none
        }
    }

    /// Big-endian packing of up to 8 bytes (longer values never reach here).
    private static func pack(_ bytes: Bytes) -> UInt64 {
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | (i < bytes.count ? UInt64(bytes[i]) : 0) }
        return key
    }
}
