@testable import FieldGuideArtifact
import Testing

@Suite("String pool UTF-8 check")
struct UTF8ValidationTests {
    @Test("valid text passes; the first bad byte is found, overlongs and surrogates included", arguments: [
        ([UInt8]("JONATHON Ö 日本 🐦".utf8), nil),
        ([0x4A, 0x4F, 0x4E, 0xC9, 0x54], 3),            // Latin-1 É
        ([0x41, 0xC0, 0x80], 1),                        // overlong NUL
        ([0xED, 0xA0, 0x80], 0),                        // UTF-16 surrogate
        ([0xF4, 0x90, 0x80, 0x80], 0),                  // past U+10FFFF
        ([0x41, 0xE6, 0x97], 1),                        // truncated at the end
        ([0x80], 0),                                    // a lone continuation byte
    ] as [([UInt8], Int?)])
    func firstInvalid(bytes: [UInt8], expected: Int?) {
        #expect(bytes.withUnsafeBytes { StringPool.firstInvalidUTF8($0) } == expected)
    }

    /// ASCII is checked 16 bytes a step: a bad byte, or a character, at every place around a
    /// step's edge is found as byte by byte.
    @Test("long ASCII runs: the first bad byte is found at any offset, characters across a step's edge pass")
    func asciiSteps() {
        for length in [15, 16, 17, 31, 32, 33, 47] {
            for place in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "A"), count: length)
                bytes[place] = 0xC9                                       // Latin-1 É, alone
                #expect(bytes.withUnsafeBytes { StringPool.firstInvalidUTF8($0) } == place)
                if place + 3 <= length {
                    bytes.replaceSubrange(place..<place + 3, with: [0xE6, 0x97, 0xA5])   // 日
                    #expect(bytes.withUnsafeBytes { StringPool.firstInvalidUTF8($0) } == nil)
                    bytes[length - 1] = 0x80       // a lone continuation byte last, or 日's last byte changed (still valid)
                    let expected: Int? = place + 3 < length ? length - 1 : nil
                    #expect(bytes.withUnsafeBytes { StringPool.firstInvalidUTF8($0) } == expected)
                }
            }
        }
    }
}
