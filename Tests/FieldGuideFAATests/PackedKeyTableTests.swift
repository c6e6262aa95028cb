@testable import FieldGuideFAA
import Testing

/// The merge's key table must answer as a `Dictionary` does, whatever the keys: 0, keys that
/// share their hash's top bits, and more keys than it was sized for.
@Suite("Packed key table")
struct PackedKeyTableTests {
    @Test("lookups and overwrites match a Dictionary, through growth, with 0 and clustered keys")
    func matchesDictionary() {
        var table = PackedKeyTable<Int>(expectedCount: 4)  // sized small: it must grow many times
        var reference: [UInt64: Int] = [:]
        var state: UInt64 = 11
        var keys: [UInt64] = [0, 1, .max, 0x4E39_3000_0000_0000]  // 0 is stored apart; "N90" packed
        // Keys a multiple of a large power of two apart: the same low bits, a hard case for
        // a hash that kept only those.
        keys += (1...300).map { UInt64($0) << 40 }
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            keys.append(state >> UInt64(state & 31))
        }
        for (i, key) in keys.enumerated() {
            #expect(table[key] == reference[key])
            table[key] = i
            reference[key] = i
        }
        for key in keys + [2, 3, 1 << 41 + 1] {
            #expect(table[key] == reference[key], "key \(key)")
        }
        #expect(table.count == reference.count)
    }

    @Test("join keys find packed codes of up to 8 bytes and longer codes by text")
    func joinKeys() {
        var keys = FAAJoinKeys()
        for code in ["0020901", "17003", "", "ABCDEFGHIJ"] { #expect(keys.claim(code, line: 2) == nil) }
        #expect(keys.contains("0020901") && keys.contains(packed: FAAJoinKeys.pack("17003")))
        #expect(keys.contains("") && keys.contains(packed: 0))
        #expect(keys.contains("ABCDEFGHIJ") && !keys.contains("ABCDEFGHIK"))
        #expect(!keys.contains("0020902") && !keys.contains(packed: FAAJoinKeys.pack("1700")))
    }

    @Test("a code is claimed once: a later claim gets the first line, short or long, empty included")
    func claims() {
        var keys = FAAJoinKeys(expectedCount: 2)
        let codes = ["0020901", "17003", "", "ABCDEFGHIJ", "ABCDEFGH", "ABCDEFGHI"]
        for (line, code) in codes.enumerated() { #expect(keys.claim(code, line: line + 2) == nil, "\(code)") }
        for (line, code) in codes.enumerated() { #expect(keys.claim(code, line: 99) == line + 2, "\(code)") }
        // Past the expected count the table grows and keeps every first line.
        for n in 0..<1_000 { #expect(keys.claim("M\(n)", line: 100 + n) == nil) }
        #expect(keys.claim("M999", line: 5_000) == 1_099 && keys.claim("0020901", line: 5_000) == 2)
        #expect(keys.contains("ABCDEFGHI") && keys.contains("M0") && !keys.contains("M1000"))
    }
}
