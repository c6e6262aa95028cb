@testable import FieldGuideArtifact
import FieldGuideArtifactWriter
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

    @Test("the padded form: for every count 0 to 16 and any bytes after it, the string of the first count bytes, nil past 15 or for non-ASCII")
    func padded() {
        // 32 bytes whose tail is not zero: the masks, not the buffer, must end the string.
        let ascii = (0..<32).map { UInt8(0x41 + $0 % 26) }
        for count in 0...16 {
            for byte: UInt8? in [nil, 0x00, 0x7F, 0x80, 0xC3] {
                var bytes = ascii
                if let byte, count > 0 { bytes[count - 1] = byte }
                let ours = bytes.withUnsafeBytes { ArtifactText.inlineASCII(padded: $0.baseAddress!, count: count) }
                let expected = count <= 15 && bytes[0..<count].allSatisfy { $0 < 0x80 } ? String(decoding: bytes[0..<count], as: UTF8.self) : nil
                #expect(ours == expected, "count \(count), last byte \(byte.map(String.init) ?? "-")")
                #expect(ours.map { Array($0.utf8) } == expected.map { Array($0.utf8) } && ours?.hashValue == expected?.hashValue)
            }
        }
        #expect(ascii.withUnsafeBytes { ArtifactText.inlineASCII(padded: $0.baseAddress!, count: -1) } == nil)
    }

    @Test("the word form: for every count 0 to 9 and any bytes past it, the string of the word's first count bytes, nil past 8 or for non-ASCII")
    func word() {
        // High bytes set past the count: the mask, not the word, must end the string.
        let ascii = (0..<8).map { UInt8(0x41 + $0) }
        for count in 0...9 {
            for byte: UInt8? in [nil, 0x00, 0x7F, 0x80, 0xC3] {
                var bytes = ascii
                if let byte, count > 0, count <= 8 { bytes[count - 1] = byte }
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                let ours = ArtifactText.inlineASCII(word: word, count: count)
                let expected = count <= 8 && bytes[0..<count].allSatisfy { $0 < 0x80 } ? String(decoding: bytes[0..<count], as: UTF8.self) : nil
                #expect(ours == expected, "count \(count), last byte \(byte.map(String.init) ?? "-")")
                #expect(ours.map { Array($0.utf8) } == expected.map { Array($0.utf8) } && ours?.hashValue == expected?.hashValue)
            }
        }
        #expect(ArtifactText.inlineASCII(word: 0x544A_3035_324E, count: 6) == "N250JT")
        #expect(ArtifactText.inlineASCII(word: 0x41, count: -1) == nil)
    }

    @Test("a string's inline prefix: its first eight bytes and count when it is short ASCII, nil otherwise")
    func inlinePrefix() {
        #expect(ArtifactText.inlineASCIIPrefix("N250JT").map { [$0.word, UInt64($0.count)] } == [0x544A_3035_324E, 6])
        #expect(ArtifactText.inlineASCIIPrefix("").map { [$0.word, UInt64($0.count)] } == [0, 0])
        #expect(ArtifactText.inlineASCIIPrefix("ABCDEFGHIJKLMNO")?.count == 15)
        #expect(ArtifactText.inlineASCIIPrefix("ABCDEFGHIJKLMNOP") == nil, "16 bytes are not inline")
        #expect(ArtifactText.inlineASCIIPrefix("N25É") == nil, "inline but not ASCII")
        let built = String(repeating: "N", count: 1) + "12"
        #expect(ArtifactText.inlineASCIIPrefix(built).map { [$0.word, UInt64($0.count)] } == [0x3231_4E, 3], "a string built at run time")
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

/// `StringPool.string(_:)`: short ASCII read 16 bytes at a time where the data has them, the rest
/// (the data's last 16 bytes, long or non-ASCII text) through `ArtifactText.string`; the same
/// string as `String(decoding:as:)` of the id's bytes either way.
@Suite("String pool: each string, padded or not")
struct StringPoolStringTests {
    @Test("every id of pools whose last strings are short, long or not ASCII, up to the data's last byte")
    func everyID() throws {
        let ascii = (0...20).map { String(repeating: "K", count: $0) }
        let other = ["Ré", "Zoë Ånström", "日本語のテキスト", "A\u{7F}", "été 2026 — ✈︎"]
        // Each pool ends on a different kind of string (sorted byte-wise, "~" and "\u{FFFF}" last).
        for last in ["~", "~~~~~~~~~~~~~~~", "~~~~~~~~~~~~~~~~~", "\u{FFFF}", "~é"] {
            var builder = StringPoolBuilder(expectedStrings: 32)
            for text in ascii + other + [last] { _ = builder.intern(text) }
            let (bytes, _) = builder.finish()
            try bytes.withUnsafeBytes { raw in
                let pool = try StringPool(raw, path: "t")
                var seen: Set<String> = []
                for id in 0..<UInt32(pool.count) {
                    let text = pool.string(id)
                    #expect(text == String(decoding: pool.bytes(id), as: UTF8.self), "id \(id) with \(last) last")
                    #expect(Array(text.utf8) == Array(pool.bytes(id)) && text.hashValue == String(decoding: pool.bytes(id), as: UTF8.self).hashValue)
                    seen.insert(text)
                }
                #expect(seen == Set(ascii + other + [last]))
                #expect(pool.string(UInt32(pool.count)) == "" && pool.string(.max) == "")
            }
        }
    }
}
