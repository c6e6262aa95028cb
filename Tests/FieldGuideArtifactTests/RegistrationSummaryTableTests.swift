import FieldGuideArtifact
import Testing

/// `RegistrationSummaryTable` over sections written here by hand from the documented layout
/// (`RegistrationSummarySchema.swift`), not by the emit stage: every key is found in its bucket,
/// every field of every length reads back, and crafted directories and summaries give
/// not-found, empty or wrong text, never a read outside the section.
@Suite("Registration summary table: buckets, fields, crafted values")
struct RegistrationSummaryTableTests {
    typealias Table = RegistrationSummaryTable
    typealias Field = AircraftSchema.SummaryField

    /// One registration: its N-number and six fields (nil: kept out).
    struct Entry {
        var nNumber: String
        var fields: [[UInt8]?]
    }

    /// 40 registrations with fields of many lengths (the largest summary exactly 255 bytes),
    /// some kept out, and one whose key is not the whole N-number.
    static let entries: [Entry] = (0..<40).map { row in
        var fields: [[UInt8]?] = []
        var size = Table.headerSize
        for field in 0..<Field.allCases.count {
            if (row + field) % 11 == 0 { fields.append(nil); continue }
            let length = min((row * 37 + field * 53) % 90, Table.maximumSize - size)
            fields.append((0..<length).map { UInt8(0x41 + ($0 + row) % 26) })
            size += length
        }
        return Entry(nNumber: row == 39 ? "N12345678" : "N\(row + 1)A", fields: fields)
    }

    /// The two sections for `entries` in a directory of `buckets` buckets: the summaries in
    /// bucket order (row order within one), each bucket's start, the rows' starts.
    static func sections(_ entries: [Entry], buckets: Int) -> (summaries: [UInt8], directory: [UInt8]) {
        let shift = UInt64(64 - buckets.trailingZeroBitCount)
        let keys = entries.map { PackedKey.pack($0.nNumber) }
        var data: [UInt8] = [], starts = [UInt32](repeating: 0, count: entries.count), directory: [UInt32] = []
        for bucket in 0..<buckets {
            directory.append(UInt32(data.count))
            for (row, entry) in entries.enumerated() where Table.bucket(of: keys[row], shift: shift) == bucket {
                starts[row] = UInt32(data.count)
                let start = data.count
                data += withUnsafeBytes(of: keys[row].littleEndian, Array.init)
                data += withUnsafeBytes(of: UInt32(row).littleEndian, Array.init)
                var flags: UInt8 = entry.nNumber.utf8.count <= 8 ? Table.wholeKey : 0
                for (index, field) in entry.fields.enumerated() where field == nil { flags |= 1 << UInt8(index) }
                data.append(flags)
                var bounds = [UInt8(Table.headerSize)]
                var texts: [UInt8] = []
                for field in entry.fields {
                    texts += field ?? []
                    bounds.append(UInt8(Table.headerSize + texts.count))
                }
                data += bounds + texts
                precondition(data.count - start == Int(bounds.last!))
            }
        }
        directory.append(UInt32(data.count))
        let head = starts.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        return (head + data, directory.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) })
    }

    /// Runs `body` with the table over `summaries` and `directory`, and the summaries' bytes.
    static func withTable<T>(_ summaries: [UInt8], _ directory: [UInt8], rows: Int = entries.count,
                             _ body: (Table, UnsafeRawBufferPointer) throws -> T) throws -> T {
        try summaries.withUnsafeBytes { summaries in
            try directory.withUnsafeBytes { directory in
                try body(try Table(summaries: summaries, directory: directory, rows: rows, path: "test"), summaries)
            }
        }
    }

    @Test("every key found in directories of 1, 8 and 64 buckets; every field of every summary reads back", arguments: [1, 8, 64])
    func everyField(buckets: Int) throws {
        let (summaries, directory) = Self.sections(Self.entries, buckets: buckets)
        try Self.withTable(summaries, directory) { table, _ in
            #expect(table.buckets == buckets)
            for (row, entry) in Self.entries.enumerated() {
                let found = table.find(PackedKey.pack(entry.nNumber))
                if entry.nNumber.utf8.count > 8 {
                    #expect(found == nil, "a key that is not the whole N-number is never a match")
                    #expect(table.nNumber(at: table.start(row)) == nil)
                    continue
                }
                let hit = try #require(found, "\(entry.nNumber)")
                #expect(hit.row == row && hit.start == table.start(row))
                #expect(table.nNumber(at: hit.start) == PackedKey.pack(entry.nNumber))
                for field in Field.allCases {
                    #expect(table.field(field, at: hit.start).map(Array.init) == entry.fields[field.rawValue], "row \(row), \(field)")
                    // As text: the padded inline path, and the general one near the data's end.
                    #expect(table.text(field, at: hit.start) == entry.fields[field.rawValue].map { String(decoding: $0, as: UTF8.self) })
                    // The inlinable short form: the text when it is at most 15 bytes and the
                    // summary lies far enough from the data's end, else nil (never other text).
                    let farFromEnd = hit.start <= summaries.count - Self.entries.count * 4 - (Table.maximumSize + 16)
                    let short = entry.fields[field.rawValue].flatMap { $0.count <= 15 ? String(decoding: $0, as: UTF8.self) : nil }
                    #expect(table.shortText(field, at: hit.start) == (farFromEnd ? short : nil), "row \(row), \(field)")
                }
            }
            #expect(table.find(PackedKey.pack("N99Z")) == nil)
            // Starts past the data read nothing; a row outside the table starts at the end.
            #expect(table.field(.city, at: summaries.count) == nil && table.field(.city, at: -1) == nil)
            #expect(table.field(.city, at: table.start(Self.entries.count)) == nil && table.nNumber(at: Int.max / 2) == nil)
        }
    }

    @Test("the short form refuses what it cannot make inline: non-ASCII, 16 bytes and more, a start outside the data")
    func shortTextRefuses() throws {
        // Far from the data's end (a dozen summaries follow), so only the text decides.
        let fields: [[UInt8]?] = [Array("caf\u{E9}".utf8), Array(repeating: 0x41, count: 16), Array(repeating: 0x42, count: 15), [], nil, Array("AC6CD2".utf8)]
        let entries = (0..<12).map { Entry(nNumber: "N\($0 + 1)", fields: fields) }
        let (summaries, directory) = Self.sections(entries, buckets: 1)
        try Self.withTable(summaries, directory, rows: entries.count) { table, _ in
            let start = table.start(0)
            #expect(table.text(.serialNumber, at: start) == "caf\u{E9}" && table.shortText(.serialNumber, at: start) == nil)
            #expect(table.text(.modelCode, at: start)?.utf8.count == 16 && table.shortText(.modelCode, at: start) == nil)
            #expect(table.shortText(.name, at: start) == String(repeating: "B", count: 15))
            #expect(table.shortText(.city, at: start) == "")
            #expect(table.text(.state, at: start) == nil && table.shortText(.state, at: start) == nil, "kept out")
            #expect(table.shortText(.modeSHex, at: start) == "AC6CD2")
            for outside in [-1, Int.min, summaries.count, Int.max] { #expect(table.shortText(.modeSHex, at: outside) == nil) }
        }
    }

    @Test("the writer's bucket count: a power of two with 8 to 16 keys a bucket (1 bucket below 16 keys)")
    func bucketCounts() {
        #expect([0, 1, 15, 16, 31, 32, 316_000].map(Table.bucketCount(forKeys:)) == [1, 1, 1, 2, 2, 4, 32_768])
        for keys in [16, 100, 1_000, 12_345, 316_000, 1 << 20, (1 << 20) - 1] {
            let buckets = Table.bucketCount(forKeys: keys)
            #expect(buckets & (buckets - 1) == 0 && (8..<16).contains(keys / buckets), "\(keys) keys: \(buckets) buckets")
        }
    }

    @Test("sections that cannot hold the table: a typed error naming the section")
    func malformed() throws {
        let (summaries, directory) = Self.sections(Self.entries, buckets: 8)
        for bytes in [Array(directory.dropLast(4)), Array(directory.dropLast(1)), Array(directory.prefix(4)), []] {
            #expect(throws: ArtifactError.self) { try Self.withTable(summaries, bytes) { _, _ in } }
        }
        do {
            try Self.withTable(Array(summaries.prefix(40 * 4 - 1)), directory) { _, _ in }
            Issue.record("opened starts that do not fit")
        } catch {
            #expect("\(error)".contains("RSMB"), "\(error)")
        }
    }

    @Test("crafted directory entries and summary headers: not found, empty or wrong text, never outside the section")
    func crafted() throws {
        let (summaries, directory) = Self.sections(Self.entries, buckets: 8)
        let starts = Self.entries.count * 4
        // Every directory word and every byte of the first summaries set to extreme values.
        for (index, value) in [(0, UInt32.max), (1, 0), (2, 0x7FFF_FFFF)].flatMap({ w in (0..<9).map { ($0, w.1) } }) {
            var crafted = directory
            withUnsafeBytes(of: value.littleEndian) { for i in 0..<4 { crafted[index * 4 + i] = $0[i] } }
            try Self.withTable(summaries, crafted) { Self.readEverything($0, within: $1) }
        }
        for offset in starts..<min(summaries.count, starts + 300) {
            for value: UInt8 in [0, 1, 19, 20, 0x7F, 0xFF] {
                var crafted = summaries
                crafted[offset] = value
                try Self.withTable(crafted, directory) { Self.readEverything($0, within: $1) }
            }
        }
        // A summary whose size is below its header ends the walk instead of looping.
        var looping = summaries
        looping[starts + Table.headerSize - 1] = 0
        try Self.withTable(looping, directory) { Self.readEverything($0, within: $1) }
    }

    /// Looks every key up and reads every field of every row (found or by start): each found
    /// row is in the table, each field's bytes inside `section`.
    static func readEverything(_ table: Table, within section: UnsafeRawBufferPointer) {
        let base = section.baseAddress!
        for (row, entry) in entries.enumerated() {
            let found = table.find(PackedKey.pack(entry.nNumber))
            #expect(found.map { $0.row < entries.count && $0.start >= 0 } ?? true)
            let start = found?.start ?? table.start(row)
            _ = table.nNumber(at: start)
            for field in Field.allCases {
                #expect(table.text(field, at: start) == table.field(field, at: start).map { String(decoding: $0, as: UTF8.self) })
                let short = table.shortText(field, at: start)
                #expect(short == nil || short == table.text(field, at: start), "row \(row), \(field)")
                guard let bytes = table.field(field, at: start), let first = bytes.baseAddress else { continue }
                #expect(first >= base && first + bytes.count <= base + section.count, "row \(row), \(field)")
            }
        }
    }
}
