@testable import FieldGuideBirds
import FieldGuideDiagnostics
import Testing

/// The parser's string scan reads whole words of eight bytes (`JSONStringScan`): what ends a
/// string, what is refused in one and what is past ASCII are found at every place in a word.
@Suite("JSON string scan")
struct JSONStringScanTests {
    /// Where the scan may stop, by the byte loop it replaced: the first byte that is a quote,
    /// a backslash or a control character; the words before it and whether they were ASCII.
    private func reference(_ bytes: [UInt8], from start: Int) -> (end: Int, ascii: Bool) {
        var at = start, ascii = true
        while at + 8 <= bytes.count {
            let word = bytes[at..<at + 8]
            if word.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) { break }
            if word.contains(where: { $0 >= 0x80 }) { ascii = false }
            at += 8
        }
        return (at, ascii)
    }

    @Test("stops at the word holding a quote, a backslash or a control character, on random bytes")
    func randomBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        // Mostly plain ASCII, with the bytes that matter (and their neighbours) now and then.
        let rare: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0..<20_000 {
            let count = Int(next() % 40)
            let bytes = (0..<count).map { _ in next() % 6 == 0 ? rare[Int(next() % UInt64(rare.count))] : UInt8(0x41 + next() % 26) }
            let start = count == 0 ? 0 : Int(next() % UInt64(count))
            let scanned = bytes.withUnsafeBufferPointer { JSONStringScan.plainWords($0, from: start) }
            let expected = reference(bytes, from: start)
            #expect(scanned == expected, "\(bytes) from \(start)")
            if scanned != expected { return }
        }
    }

    @Test("the documented example")
    func example() {
        let bytes = Array(#""plain text here", "next""#.utf8)
        #expect(bytes.withUnsafeBufferPointer { JSONStringScan.plainWords($0, from: 1) } == (9, true))
    }

    @Test("a byte past ASCII, a refused byte or an escape at every place of a long string")
    func everyPlace() throws {
        for length in 1...26 {
            for place in 0..<length {
                let before = String(repeating: "a", count: place), after = String(repeating: "b", count: length - place - 1)
                // UTF-8 text: the same string back.
                #expect(try parse("[\"\(before)é\(after)\"]").root.array?.first?.string == before + "é" + after)
                // An escaped quote ends nothing.
                #expect(try parse("[\"\(before)\\\"\(after)\"]").root.array?.first?.string == before + "\"" + after)
                // A raw tab, and a byte that is not UTF-8: refused at their column ("[\"" is two).
                let tab = try #require(syntaxError("[\"\(before)\t\(after)\"]"))
                #expect(tab.column == 3 + place && tab.message.contains("U+0009"), "\(tab)")
                do {
                    _ = try JSONDocument.parse(Array("[\"\(before)".utf8) + [0xFF] + Array("\(after)\"]".utf8))
                    Issue.record("0xFF at \(place) of \(length) was read")
                } catch {
                    #expect(error.kind == .encoding && error.column == 3 + place, "\(error)")
                }
            }
        }
    }

    @Test("line numbers past many lines, CRLF ones too, and a last line without a line feed")
    func lines() throws {
        let body = (0..<999).map { "\"line \($0)\"," }.joined(separator: "\r\n")
        let error = try #require(syntaxError("[" + body + "\r\n  x]"))
        #expect(error.line == 1000 && error.column == 3, "\(error)")
        let document = try parse("[\n" + String(repeating: "1,\n", count: 499) + "2]")
        #expect(document.location(of: try #require(document.root.array?.last)) == SourceLocation(line: 501, column: 1))
    }
}

/// The stack the parser gathers containers' items on (`JSONItemStack`).
@Suite("JSON item stack")
struct JSONItemStackTests {
    /// Counts the instances alive, to see each item released once, whether popped or left.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) { self.value = value; Self.alive += 1 }
        deinit { Self.alive -= 1 }
    }

    @Test("nested pops hand over each container's items in order, past the first capacity")
    func nested() {
        let stack = JSONItemStack<Int>(capacity: 2)
        let outer = stack.count
        stack.push(1)
        let inner = stack.count
        for value in 10..<15 { stack.push(value) }
        #expect(stack.pop(from: inner) == [10, 11, 12, 13, 14])
        #expect(stack.pop(from: stack.count) == [])
        stack.push(2)
        #expect(stack.pop(from: outer) == [1, 2] && stack.count == 0)
    }

    @Test("every item is released once: popped ones with their array, the rest with the stack")
    func releases() {
        do {
            let stack = JSONItemStack<Tracked>(capacity: 1)
            for value in 0..<100 { stack.push(Tracked(value)) }
            let popped = stack.pop(from: 60)
            #expect(popped.map(\.value) == Array(60..<100) && Tracked.alive == 100)
            _ = consume popped
            #expect(Tracked.alive == 60)
        }
        #expect(Tracked.alive == 0)
    }
}
