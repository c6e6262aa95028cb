import FieldGuideArtifact

extension AircraftBundle {
    /// The key of an N-number already written as stored (`N` and one to five digits or capital
    /// letters) in a string stored inline, read from the string's own first word; nil for any
    /// other string (then `registrationKey(utf8:)` decides).
    ///
    /// Why: a lookup's key is usually this short, canonical, inline string, and reading its bytes
    /// one by one through `withContiguousStorageIfAvailable` costs a closure call and a loop whose
    /// length changes from key to key (a mispredicted exit most lookups). Here every mark is
    /// checked at once, eight bytes in one word: the same answer in a few dozen instructions
    /// and no branch on the length.
    @inlinable @inline(__always)
    static func inlineRegistrationKey(_ text: String) -> RegistrationKey? {
        guard let (word, count) = ArtifactText.inlineASCIIPrefix(text), count >= 2, count <= 6,
              word & 0xFF == UInt64(UInt8(ascii: "N")) else { return nil }
        // Bytes 1..<count must be digits or capital letters (all bytes are ASCII, below 0x80):
        // a byte x is in lo...hi when x + (0x80 - lo) has its top bit set and x + (0x7F - hi) not.
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        func inRange(_ lo: UInt64, _ hi: UInt64) -> UInt64 { (word &+ (0x80 - lo) &* ones) & ~(word &+ (0x7F - hi) &* ones) }
        let valid = (inRange(0x30, 0x39) | inRange(0x41, 0x5A)) & tops
        let marks = tops & ~(UInt64.max << (8 * UInt64(count))) & ~0xFF
        guard valid & marks == marks else { return nil }
        return RegistrationKey(packed: (word & ~(UInt64.max << (8 * UInt64(count)))).byteSwapped, count: count)
    }
}

extension AircraftBundle.RegistrationKey {
    /// The N-number as an inline string written from the key's word (at most 6 ASCII bytes):
    /// no buffer to fill, no call (`ArtifactText.inlineASCII(padded:count:)`); nil only where
    /// `String` does not keep short text inline, and then `text` is the answer.
    @inline(__always)
    var inlineText: String? {
        withUnsafeBytes(of: (packed.bigEndian, UInt64(0))) { ArtifactText.inlineASCII(padded: $0.baseAddress!, count: count) }
    }
}
