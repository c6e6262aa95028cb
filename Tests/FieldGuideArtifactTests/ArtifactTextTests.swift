@testable import FieldGuideArtifact
import Testing

/// `ArtifactText` gives exactly the string `String(decoding:as:)` gives, whichever way it made it.
@Suite("Artifact text: short ASCII written inline")
struct ArtifactTextTests {
    /// Both decodings of `bytes`, checked equal as strings, as UTF-8, as characters and by hash,
    /// and usable like any string (appended to, compared, hashed in a set).
    static func expectSame(_ bytes: [UInt8], _ comment: Comment? = nil) {
        bytes.withUnsafeBytes { raw in
            let ours = ArtifactText.string(raw), theirs = String(decoding: raw, as: UTF8.self)
            #expect(ours == theirs, comment)
            #expect(Array(ours.utf8) == Array(theirs.utf8) && ours.count == theirs.count, comment)
            #expect(ours.hashValue == theirs.hashValue && Set([ours, theirs]).count == 1, comment)
            #expect(ours + "-" == theirs + "-" && ours.lowercased() == theirs.lowercased(), comment)
        }
    }

    @Test("the layout check holds on this platform, so the inline path is the one tested")
    func layout() {
        #expect(ArtifactText.inlineLayoutHolds)
        let text: [UInt8] = Array("N250JT".utf8)
        #expect(text.withUnsafeBytes(ArtifactText.inlineASCII) == "N250JT")
    }

    @Test("every length from 0 to 20, ASCII, with a byte of each kind at each position")
    func lengths() {
        for length in 0...20 {
            let ascii = (0..<length).map { UInt8(0x41 + $0 % 26) }
            Self.expectSame(ascii, "\(length) ASCII")
            for position in 0..<length {
                for byte: UInt8 in [0x00, 0x20, 0x7F, 0x80, 0xC3, 0xFF] {
                    var bytes = ascii
                    bytes[position] = byte
                    Self.expectSame(bytes, "\(length) bytes, \(byte) at \(position)")
                }
            }
        }
    }

    @Test("non-ASCII text and invalid UTF-8 go through the general decoder: the same characters, repaired")
    func nonASCII() {
        for text in ["É", "ÉCOLE", "AÉROSPATIALE", "北京", "ZÜRICH AG", String(repeating: "É", count: 8)] {
            Self.expectSame(Array(text.utf8), "\(text)")
        }
        Self.expectSame([0x41, 0xC3], "a truncated character")
        Self.expectSame([0xED, 0xA0, 0x80], "a surrogate")
        #expect([UInt8]([0x41, 0xFF]).withUnsafeBytes(ArtifactText.inlineASCII) == nil)
    }

    @Test("the words hold the bytes in order, zero past the end, for every length up to 16")
    func words() {
        let bytes = (1...16).map { UInt8($0) }
        for length in 0...16 {
            let (low, high) = bytes.withUnsafeBytes { ArtifactText.words(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            var expected = [UInt8](repeating: 0, count: 16)
            expected.replaceSubrange(0..<length, with: bytes[0..<length])
            let got = withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { Array($0) }
            #expect(got == expected, "\(length)")
        }
    }
}
