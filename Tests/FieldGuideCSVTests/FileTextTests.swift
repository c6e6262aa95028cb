import FieldGuideCSV
import Testing

/// `FileText.decode`: its ASCII path, its UTF-8 validation and its Latin-1 fallback give what
/// validating every value would, wherever the one non-ASCII byte sits (in the eight-byte
/// words the ASCII check reads, or in the tail after them).
@Suite("FileText: UTF-8, or Latin-1 when not")
struct FileTextTests {
    func decode(_ bytes: [UInt8]) -> (text: String, isLatin1: Bool) {
        bytes.withUnsafeBufferPointer { FileText.decode($0) }
    }

    @Test("ASCII of every length up to 20 bytes comes back as it is")
    func ascii() {
        for length in 0...20 {
            let bytes = (0..<length).map { UInt8(ascii: "A") + UInt8($0 % 26) }
            let decoded = decode(bytes)
            #expect(decoded.text == String(decoding: bytes, as: UTF8.self) && !decoded.isLatin1)
            #expect(Array(decoded.text.utf8) == bytes)
        }
    }

    @Test("one non-ASCII character at every position: UTF-8 kept, a lone Latin-1 byte read as Latin-1")
    func nonASCII() {
        for length in 1...20 {
            for position in 0..<length {
                var utf8 = Array(repeating: UInt8(ascii: "x"), count: length)
                utf8.replaceSubrange(position...position, with: Array("É".utf8))
                let kept = decode(utf8)
                #expect(kept.text == String(validating: utf8, as: UTF8.self) && !kept.isLatin1)

                var latin1 = Array(repeating: UInt8(ascii: "x"), count: length)
                latin1[position] = 0xC9
                let read = decode(latin1)
                #expect(read.isLatin1, "length \(length), position \(position)")
                #expect(read.text == String(repeating: "x", count: position) + "É" + String(repeating: "x", count: length - position - 1))
            }
        }
    }

    /// The reference: every byte from space to tilde.
    func isPrintable(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } }

    @Test("isPrintableASCII: every byte value at every position of 1-40 bytes: short, in blocks of 16, in the tail read from the end")
    func printableEveryByte() {
        for length in 1...40 {
            for position in 0..<length {
                for byte in 0...255 {
                    var bytes = Array(repeating: UInt8(ascii: "x"), count: length)
                    bytes[position] = UInt8(byte)
                    let answer = bytes.withUnsafeBytes { FileText.isPrintableASCII($0) }
                    #expect(answer == isPrintable(bytes), "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }

    @Test("isPrintableASCII: random runs of the bytes at the edges (a borrow from one byte must not hide or fake another)")
    func printableRandom() {
        let edges: [UInt8] = [0x00, 0x01, 0x09, 0x1F, 0x20, 0x21, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xFE, 0xFF]
        var generator = SystemRandomNumberGenerator()  // a failure prints its bytes
        for _ in 0..<200_000 {
            let length = Int(generator.next() % 50)
            let bytes = (0..<length).map { _ in
                let pick = generator.next()
                return pick % 4 == 0 ? edges[Int(pick >> 8 % UInt64(edges.count))] : UInt8(0x20 + (pick >> 16) % 95)
            }
            let answer = bytes.withUnsafeBytes { FileText.isPrintableASCII($0) }
            #expect(answer == isPrintable(bytes), "\(bytes)")
        }
    }

    @Test("read: Latin-1, a control character, both or neither; a reading for each, the field named only when there is one")
    func readings() {
        func read(_ bytes: [UInt8]) -> (String, [TextReading], asked: Int) {
            var readings: [TextReading] = [], asked = 0
            let text = bytes.withUnsafeBufferPointer { buffer in
                FileText.read(buffer, file: "t.csv", line: 4, field: { asked += 1; return "NAME" }(), into: &readings)
            }
            return (text, readings, asked)
        }
        let clean = read(Array("Grey Heron\tX".utf8))
        #expect(clean.0 == "Grey Heron\tX" && clean.1.isEmpty && clean.asked == 0)
        let control = read(Array("Grey\u{1B}[2J\u{7F}Heron".utf8))
        #expect(control.0 == "Grey\u{FFFD}[2J\u{FFFD}Heron" && control.asked == 1)
        #expect(control.1.map(\.description) == ["t.csv:4: NAME \"Grey\u{FFFD}[2J\u{FFFD}Heron\": expected text, found the control character U+001B; replaced with U+FFFD"])
        let both = read([0x47, 0xE9, 0x01, 0x0A, 0x0D])
        #expect(both.0 == "G\u{E9}\u{FFFD}\n\r" && both.1.map(\.kind) == [.latin1, .controlCharacter("\u{1}")] && both.asked == 1)
        #expect(both.1.map(\.isLatin1) == [true, false])
        for byte in UInt8(0)...0x7F {
            let kept = read([0x41, byte, 0x42])
            let isControl = (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
            #expect(kept.0 == (isControl ? "A\u{FFFD}B" : "A" + String(UnicodeScalar(byte)) + "B") && kept.1.count == (isControl ? 1 : 0), "\(byte)")
        }
    }

    @Test("firstControlCharacter: every ASCII byte at every position of 1-24 bytes, among printable and non-ASCII text, and random runs: the byte loop's answer")
    func firstControl() {
        func expected(_ text: String) -> Unicode.Scalar? { text.unicodeScalars.first { ($0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0)) || $0.value == 0x7F } }
        for length in 1...24 {
            for position in 0..<length {
                for byte in UInt8(0)...0x7F {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    bytes[position] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    #expect(FileText.firstControlCharacter(in: text) == expected(text), "\(bytes)")
                }
            }
        }
        var rng = SystemRandomNumberGenerator()
        let edges: [String] = ["\u{0}", "\u{1F}", "\u{20}", "\u{7E}", "\u{7F}", "\u{80}", "\u{FF}", "\t", "\n", "\r", "é", "\u{2028}", "a", "\u{1B}"]
        for _ in 0..<50_000 {
            let text = (0..<Int.random(in: 0...30, using: &rng)).map { _ in edges.randomElement(using: &rng)! }.joined()
            #expect(FileText.firstControlCharacter(in: text) == expected(text), "\(Array(text.utf8))")
        }
    }
}
