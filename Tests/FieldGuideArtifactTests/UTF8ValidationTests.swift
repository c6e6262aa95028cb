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
}
