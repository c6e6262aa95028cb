import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideWorkers
import Foundation
import Testing
import TestSupport

@Suite("Artifact builders")
struct BuilderTests {
    @Test("packed keys order like their bytes, for keys up to 8 bytes")
    func packedKeyOrder() {
        let keys = ["", "N1", "N10", "N100", "N2", "N90", "N900", "0020901", "00301TN", "A", "a", "ZZZZZZZZ"]
        let byBytes = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let byPacked = keys.sorted { PackedKey.pack($0) < PackedKey.pack($1) }
        #expect(byBytes == byPacked)
        #expect(PackedKey.pack("N90") == 0x4E39_3000_0000_0000)
        // Longer keys share their first 8 bytes: the reader falls back to a string comparison.
        #expect(PackedKey.pack("ABCDEFGHX") == PackedKey.pack("ABCDEFGHY"))
    }

    @Test("key table: binary search finds every key and the insertion point of missing ones")
    func keyTable() throws {
        let keys = (0..<1000).map { UInt64($0 * 3) }
        let bytes = KeyTable.serialize(keys)
        try bytes.withUnsafeBytes { raw in
            let table = try KeyTable(raw, rows: keys.count, tag: FourCC("TKEY"), path: "t")
            for (row, key) in keys.enumerated() { #expect(table.lowerBound(key) == row) }
            #expect(table.lowerBound(4) == 2)
            #expect(table.lowerBound(UInt64.max) == keys.count)
            for (row, key) in keys.enumerated() { #expect(table.upperBound(key) == row + 1) }
            #expect(table.upperBound(4) == 2 && table.upperBound(UInt64.max) == keys.count)
            #expect(throws: ArtifactError.self) { try KeyTable(raw, rows: keys.count + 1, tag: FourCC("TKEY"), path: "t") }
        }
    }

    @Test("string pool: deduplicates across rehashes, sorts byte-wise, and remaps every id")
    func poolDedup() throws {
        var pool = StringPoolBuilder(expectedStrings: 4)  // forces several rehashes
        var ids: [String: UInt32] = [:]
        let words = (0..<20_000).map { "w\(($0 * 7919) % 5003)" }  // 5,003 distinct, each seen ~4 times
        for word in words {
            let id = pool.intern(word)
            if let earlier = ids[word] { #expect(earlier == id) } else { ids[word] = id }
        }
        #expect(pool.count == 5_004)  // plus ""
        #expect(pool.intern("") == 0)
        let (bytes, remap) = pool.finish()
        try bytes.withUnsafeBytes { raw in
            let reader = try StringPool(raw, path: "t")
            #expect(reader.count == 5_004)
            for (word, id) in ids { #expect(reader.string(remap[Int(id)]) == word) }
            let all = (0..<reader.count).map { reader.string(UInt32($0)) }
            #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(reader.id(of: "w42") == remap[Int(ids["w42"]!)])
        }
    }

    @Test("string pool: a table sized for few strings grows by half past 75% full, any size, and keeps every id")
    func poolGrowth() throws {
        // 1,000 expected: 1,520 slots, then 2,280, 3,420, …: no power of two, so a probe wraps
        // at the table's end, not at a mask.
        var pool = StringPoolBuilder(expectedStrings: 1_000)
        var ids: [String: UInt32] = [:]
        for round in 0..<2 {
            for n in 0..<60_000 {
                let word = n % 3 == 0 ? "a long string past eight bytes \(n)" : "s\(n)"
                let id = pool.intern(word)
                if round == 0 { #expect(id == UInt32(n + 1)); ids[word] = id } else { #expect(ids[word] == id) }
            }
        }
        #expect(pool.count == 60_001)
        let (bytes, remap) = pool.finish()
        try bytes.withUnsafeBytes { raw in
            let reader = try StringPool(raw, path: "t")
            for (word, id) in ids { #expect(reader.string(remap[Int(id)]) == word) }
        }
    }

    @Test("row table sort is stable and reports where each row went")
    func rowSort() {
        enum Column: Int, RowColumn {
            case key, payload
            var kind: ColumnKind { .u32 }
        }
        var table = RowTableBuilder<Column>()
        for (key, payload) in [(3, 0), (1, 1), (3, 2), (2, 3)] {
            let row = table.appendRow()
            table[row, .key] = UInt32(key)
            table[row, .payload] = UInt32(payload)
        }
        let moved = table.sort(by: [.key])
        #expect((0..<4).map { table[$0, .payload] } == [1, 3, 0, 2])
        #expect(moved == [2, 0, 3, 1])
    }

    @Test("radix sort: keys alone, and keys with values, agree with a stable comparison sort")
    func radixSort() {
        var rng = SystemRandomNumberGenerator()
        // Keys that differ in a few bytes only (passes skipped) and keys that differ everywhere.
        for mask in [UInt64(0x0000_00FF_0000_FF00), .max] {
            let keys = (0..<5_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) & mask }
            var sorted = keys
            RadixSort.sort(keys: &sorted)
            #expect(sorted == keys.sorted())
            var carried = keys, values = (0..<UInt32(keys.count)).map { $0 }
            RadixSort.sort(keys: &carried, values: &values)
            let expected = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map(UInt32.init)
            #expect(carried == keys.sorted() && values == expected)
        }
    }

    @Test("a row table's column, read whole, is the column row by row")
    func columnValues() {
        var table = RowTableBuilder<AircraftSchema.ModelNameColumn>()
        for row in 0..<3 {
            _ = table.appendRow()
            table[row, .name] = UInt32(10 + row)
        }
        #expect(table.values(of: .name) == [10, 11, 12])
        #expect(table.values(of: .modelRow) == Array(repeating: UInt32.max, count: 3))
    }

    @Test("streamed writing gives the same bytes and section table as in-memory serialization")
    func streamedWrite() throws {
        var builder = ArtifactBuilder(kind: FourCC("TEST"))
        builder.addSection(FourCC("BBBB"), rows: 3, bytes: [1, 2, 3])
        builder.addSection(FourCC("AAAA"), rows: 1, bytes: Array(repeating: 7, count: 13))
        let path = try TestPaths.temporaryDirectory("stream").appendingPathComponent("t.fgb").path
        var observed: [UInt8] = []
        let (size, sections) = try builder.write(to: path) { observed.append(contentsOf: $0) }
        let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try onDisk == builder.serialize())
        #expect(observed == onDisk && size == onDisk.count)
        let file = try ArtifactFile(path: path)
        #expect(file.sections == sections)
        #expect(sections.map(\.tag) == ["AAAA", "BBBB"])
        #expect(sections.allSatisfy { $0.offset % 8 == 0 })
    }

    @Test("reseal: a changed section opens again; an entry whose offset or length passes Int.max is left alone")
    func resealHostileEntry() throws {
        var builder = ArtifactBuilder(kind: FourCC("TEST"))
        builder.addSection(FourCC("AAAA"), rows: 2, bytes: [1, 2, 3, 4, 5, 6, 7, 8])
        let original = try builder.serialize()
        let directory = try TestPaths.temporaryDirectory("reseal")
        let path = directory.appendingPathComponent("t.fgb").path
        func opens(_ bytes: [UInt8]) throws -> Bool {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return (try? ArtifactFile(path: path, verification: .full)) != nil
        }
        #expect(try opens(original))
        let entry = ArtifactFormat.headerSize
        // A changed byte inside the section: refused until resealed.
        var changed = original
        changed[Int(try ArtifactFile(path: path).sections[0].offset)] ^= 0xFF
        #expect(try !opens(changed))
        changed.withUnsafeMutableBytes { ArtifactBuilder.reseal($0, section: 0) }
        #expect(try opens(changed))
        // The offset, then the length, set past Int.max (what libFuzzer's own mutations write):
        // no trap, no change.
        for field in [8, 16] {
            var hostile = original
            for i in 0..<8 { hostile[entry + field + i] = 0xFF }
            let before = hostile
            hostile.withUnsafeMutableBytes { ArtifactBuilder.reseal($0, section: 0) }
            #expect(hostile == before)
        }
    }
}

@Suite("Artifact builders: one-pass paths")
struct OnePassBuilderTests {
    enum Column: Int, RowColumn {
        case name, small, key
        var kind: ColumnKind { self == .name ? .string : self == .small ? .u8 : .u32 }
    }

    @Test("serialize(_:order:) over several tables gives the bytes of their concatenation, sorted")
    func orderedSerialize() {
        let rows: [(UInt32, UInt32, UInt32)] = [(3, 1, 30), (1, 2, 10), (2, 255, 30), (0, 4, 20), (3, 5, 10), (7, 0, 0)]
        func table(_ rows: ArraySlice<(UInt32, UInt32, UInt32)>) -> RowTableBuilder<Column> {
            var table = RowTableBuilder<Column>()
            for (name, small, key) in rows {
                let row = table.appendRow()
                table[row, .name] = name
                table[row, .small] = small
                table[row, .key] = key
            }
            return table
        }
        var whole = table(rows[...])
        let moved = whole.sort(by: [.key])
        var order = [UInt32](repeating: 0, count: rows.count)
        for (old, new) in moved.enumerated() { order[new] = UInt32(old) }
        for cut in 0...rows.count {
            let parts = [table(rows[..<cut]), table(rows[cut...])]
            #expect(RowTableBuilder.serialize(parts, order: order) == whole.serialize())
        }
        #expect(RowTableBuilder.serialize([table(rows[...])], order: order) == whole.serialize())
    }

    @Test("withValues(of:) lends every table's cells in place, row-major, for any number of tables")
    func borrowedValues() {
        let rows: [(UInt32, UInt32, UInt32)] = [(3, 1, 30), (1, 2, 10), (2, 255, 30), (0, 4, 20), (3, 5, 10)]
        var tables = [RowTableBuilder<Column>(), RowTableBuilder<Column>(), RowTableBuilder<Column>()]
        for (i, (name, small, key)) in rows.enumerated() {
            let t = i < 2 ? 0 : 2  // the middle table stays empty
            let row = tables[t].appendRow()
            tables[t][row, .name] = name
            tables[t][row, .small] = small
            tables[t][row, .key] = key
        }
        let width = RowTableBuilder<Column>().rowWidth
        let lent = RowTableBuilder.withValues(of: tables) { parts in
            parts.map { part in (0..<part.count / width).map { r in Column.allCases.map { part[r * width + $0.rawValue] } } }
        }
        #expect(lent == tables.map { table in (0..<table.count).map { r in Column.allCases.map { table[r, $0] } } })
        #expect(lent.map(\.count) == [2, 0, 3])
        #expect(RowTableBuilder<Column>.withValues(of: []) { $0.count } == 0)
    }

    @Test("serialize(_:order:) of a table large enough for two threads gives the bytes of one pass")
    func orderedSerializeOnTwoThreads() {
        let count = RowTableBuilder<Column>.parallelSerializeThreshold + 1_001  // odd: halves of unequal size
        func table(_ rows: Range<Int>) -> RowTableBuilder<Column> {
            var table = RowTableBuilder<Column>()
            for i in rows {
                let row = table.appendRow()
                table[row, .name] = UInt32(i)
                table[row, .small] = UInt32(i % 251)
                table[row, .key] = UInt32(truncatingIfNeeded: (UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 40)
            }
            return table
        }
        var whole = table(0..<count)
        let moved = whole.sort(by: [.key, .name])
        var order = [UInt32](repeating: 0, count: count)
        for (old, new) in moved.enumerated() { order[new] = UInt32(old) }
        let cut = count / 3
        // Compared as one Bool: a failure would otherwise print both megabyte arrays.
        let same = RowTableBuilder.serialize([table(0..<cut), table(cut..<count)], order: order) == whole.serialize()
        #expect(same, "two-thread serialization differs from one pass")
    }

    @Test("the threaded write matches in-memory serialization for many sections of odd sizes")
    func threadedWrite() throws {
        var builder = ArtifactBuilder(kind: FourCC("TEST"))
        let tags: [FourCC] = [FourCC("HHHH"), FourCC("GGGG"), FourCC("FFFF"), FourCC("EEEE"),
                              FourCC("DDDD"), FourCC("CCCC"), FourCC("BBBB"), FourCC("AAAA")]
        // Over 4 MiB in all: the file is streamed in blocks of that size, unbuffered.
        for (i, size) in [0, 1, 7, 8, 9, 4_096, 100_003, (4 << 20) + 5].enumerated() {
            let tag = tags[i]
            builder.addSection(tag, rows: size, bytes: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) })
        }
        let path = try TestPaths.temporaryDirectory("threaded").appendingPathComponent("t.fgb").path
        var observed: [UInt8] = []
        let (size, _) = try builder.write(to: path) { observed.append(contentsOf: $0) }
        let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try onDisk == builder.serialize() && observed == onDisk && size == onDisk.count)
        _ = try ArtifactFile(path: path)  // checks every CRC
    }

    @Test("a background task hands back its value, or rethrows its error")
    func backgroundTask() {
        struct Failure: Error {}
        let sum = BackgroundTask { (1...1000).reduce(0, +) }
        #expect(sum.finished() == 500_500)
        let failing = BackgroundTask { () throws -> Int in throw Failure() }
        #expect(throws: Failure.self) { try failing.value() }
    }

    @Test("take() hands over a background task's only reference: changing the value does not copy it")
    func backgroundTaskTake() throws {
        func address(_ values: [UInt32]) -> UInt? { values.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } } }
        let kept = BackgroundTask { [UInt32](repeating: 7, count: 1_000) }
        var shared = try kept.value()
        let sharedAddress = address(shared)
        shared[0] = 1  // the task still holds the array: this write copies it
        let original = try kept.value()
        #expect(address(shared) != sharedAddress && original[0] == 7)

        let handed = BackgroundTask { [UInt32](repeating: 7, count: 1_000) }
        var taken = try handed.take()
        let takenAddress = address(taken)
        taken[0] = 1
        #expect(address(taken) == takenAddress, "take() left a second reference behind")
        #expect(throws: (any Error).self) { try handed.value() }
    }
}

@Suite("String pool: the two-thread sort")
struct ParallelPoolSortTests {
    /// Interns `words`, finishes the pool, and checks the order and the remap.
    func checkSorted(_ words: [String]) throws {
        var pool = StringPoolBuilder(expectedStrings: words.count)
        let ids = words.map { pool.intern($0) }
        #expect(pool.count > StringPoolBuilder.parallelSortThreshold)
        let (bytes, remap) = pool.finish()
        try bytes.withUnsafeBytes { raw in
            let reader = try StringPool(raw, path: "t")
            for (word, id) in zip(words, ids) { #expect(reader.string(remap[Int(id)]) == word) }
            let all = (0..<reader.count).map { Array(reader.bytes(UInt32($0))) }
            #expect(all == all.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test("large pools sort byte-wise: first bytes spread, and long shared prefixes")
    func spread() throws {
        let words = (0..<220_000).map { i -> String in
            let first = UnicodeScalar(UInt8(0x21 + (i * 7_919) % 90))
            return i % 3 == 0 ? "\(first)SAME PREFIX \(i)" : "\(first)\(i * 31)"
        }
        try checkSorted(words)
    }

    @Test("large pools sort byte-wise when every string starts with the same byte")
    func oneBucket() throws {
        try checkSorted((0..<210_000).map { "N\(($0 * 7_919) % 1_000_003)" })
    }
}
