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
}

