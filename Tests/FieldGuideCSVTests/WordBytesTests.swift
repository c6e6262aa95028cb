import FieldGuideBytes
import Testing

/// The word tests the CSV writer and the JSON string scan share (`WordBytes`): exact as to
/// whether any of the eight bytes passes, wherever it sits and whatever the others are.
@Suite("Eight bytes tested in a word")
struct WordBytesTests {
    private func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    @Test("a byte equal to the one sought, or below a bound, found at every place among any others")
    func exact() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt8 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return UInt8(truncatingIfNeeded: state) }
        let sought: [UInt8] = [0x00, 0x0A, 0x0D, 0x20, 0x22, 0x2C, 0x5C, 0x7F, 0x80, 0xFF]
        for _ in 0..<50_000 {
            // Random bytes, with the sought ones and their neighbours often among them.
            let bytes = (0..<8).map { _ in next() % 3 == 0 ? sought[Int(next()) % sought.count] &+ (next() % 3) &- 1 : next() }
            let w = word(bytes)
            for byte in sought {
                let found = WordBytes.zeroBits(w ^ WordBytes.repeated(byte)) & WordBytes.highs != 0
                #expect(found == bytes.contains(byte), "\(bytes) for \(byte)")
            }
            for bound: UInt8 in [0x01, 0x20, 0x41, 0x80] {
                #expect((WordBytes.belowBits(w, bound) & WordBytes.highs != 0) == bytes.contains { $0 < bound }, "\(bytes) below \(bound)")
            }
        }
    }

    @Test("the documented example")
    func example() {
        let word: UInt64 = 0x6F6C_6C65_6822_2C61
        #expect(word == self.word(Array(#"a,"hello"#.utf8)))
        let stops = (WordBytes.zeroBits(word ^ WordBytes.repeated(0x22)) | WordBytes.belowBits(word, 0x20)) & WordBytes.highs
        #expect(stops != 0 && stops.trailingZeroBitCount / 8 == 2)
    }
}
