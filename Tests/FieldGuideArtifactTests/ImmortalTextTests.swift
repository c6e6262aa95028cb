import Dispatch
@testable import FieldGuideArtifact
import Foundation
import Testing

/// `ImmortalText`: the same string as the one given, never counted, one copy per text, and a
/// store that stops at its capacity.
@Suite("Immortal text: code names that are never reference counted")
struct ImmortalTextTests {
    /// The string's two words: the count and flags, then the object (or the bytes, inline).
    static func words(_ text: String) -> (UInt64, UInt64) { unsafeBitCast(text, to: (UInt64, UInt64).self) }

    /// Whether `text` is an immortal string kept outside the string itself (as a literal is).
    static func isImmortalLarge(_ text: String) -> Bool { words(text).1 >> 60 == 0x8 }

    /// A heap copy of `literal` (a literal is immortal already).
    static func heapCopy(_ literal: String) -> String { String(decoding: Array(literal.utf8), as: UTF8.self) }

    @Test("the layout check holds on this platform, so the immortal path is the one tested")
    func layout() {
        #expect(ImmortalText.layoutHolds)
        #expect(!Self.isImmortalLarge(Self.heapCopy("Fixed wing single engine")))
    }

    @Test("text longer than 15 bytes, ASCII or not, comes back immortal and equal in every use")
    func sameString() throws {
        let store = ImmortalText(capacity: 4_096)
        for literal in ["Fixed wing single engine", "Type Certificated", "Ré-immatriculation en cours", "Hélicoptère léger ✈︎ 1234"] {
            let given = Self.heapCopy(literal), made = store.text(given)
            #expect(Self.isImmortalLarge(made), "\(literal)")
            #expect(made == literal && made.hashValue == literal.hashValue && Set([made, given]).count == 1)
            #expect(Array(made.utf8) == Array(literal.utf8) && made.count == literal.count && made.utf16.count == literal.utf16.count)
            #expect(made.uppercased() == literal.uppercased() && made + "!" == literal + "!" && made.hasPrefix(String(literal.prefix(4))))
            #expect(made.withCString { String(cString: $0) } == literal && made.withCString { strlen($0) } == literal.utf8.count)
            let json = try JSONEncoder().encode([made])
            #expect(try JSONDecoder().decode([String].self, from: json) == [literal])
        }
    }

    @Test("equal text shares one copy; short text is returned as it is and nothing is kept")
    func oneCopyPerText() {
        let store = ImmortalText(capacity: 4_096)
        let first = store.text(Self.heapCopy("Valid Registration")), second = store.text(Self.heapCopy("Valid Registration"))
        #expect(Self.words(first) == Self.words(second) && store.usedBytes == 19)
        for short in ["", "Valid", "Reciprocating", "Western-Pacific"] {
            #expect(Self.words(store.text(short)) == Self.words(short), "\(short)")
        }
        #expect(store.usedBytes == 19)
    }

    @Test("past its capacity the store returns text unchanged and keeps nothing more")
    func capacity() {
        let store = ImmortalText(capacity: 40)
        let kept = store.text(Self.heapCopy("Non Citizen Corporation, thirty"))   // 31 bytes and a zero
        let refused = Self.heapCopy("Registration Expired")                         // 20 more would pass 40
        #expect(Self.isImmortalLarge(kept) && store.usedBytes == 32)
        #expect(Self.words(store.text(refused)) == Self.words(refused) && store.usedBytes == 32)
        #expect(Self.words(store.text(Self.heapCopy("Non Citizen Corporation, thirty"))) == Self.words(kept))
    }

    @Test("text made from many threads at once: one copy each, every result equal to its text")
    func concurrent() {
        let store = ImmortalText(capacity: 64 * 1_024)
        let texts = (0..<64).map { "Certificate of Registration \($0)" }
        // Each thread writes its own slots.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<(UInt64, UInt64)>.allocate(capacity: 8 * texts.count)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (i, text) in texts.enumerated() {
                let made = store.text(Self.heapCopy(text))
                results[thread * texts.count + i] = Self.words(made)
                #expect(made == text)
            }
        }
        for thread in 1..<8 {
            for i in texts.indices { #expect(results[thread * texts.count + i] == results[i]) }
        }
        #expect(store.usedBytes == texts.reduce(0) { $0 + $1.utf8.count + 1 })
    }
}
