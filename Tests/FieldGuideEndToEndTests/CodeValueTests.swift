@testable import FieldGuide
import Foundation
import Testing

/// `CodeValue`: an interned value (a bundle's, held by the registry) and one that owns its
/// entry are the same value to every caller: equal, hashed, coded and printed alike.
@Suite("Code values: interned and owned alike")
struct CodeValueTests {
    @Test("equality and hashing are the code's and name's, wherever the entry is")
    func equality() {
        let registry = CodeValue.Registry(limit: 8, byteLimit: 1_000)
        let interned = CodeValue.interned(code: "V", name: "Valid Registration", in: registry)
        let owned = CodeValue(code: "V", name: "Valid Registration")
        #expect(interned.isInterned && !owned.isInterned)
        #expect(interned == owned && interned.hashValue == owned.hashValue)
        #expect(Set([interned, owned]).count == 1)
        let others = [CodeValue(code: "V", name: nil), CodeValue(code: "V", name: ""), CodeValue(code: "v", name: "Valid Registration"),
                      CodeValue.interned(code: "V", name: "Valid", in: registry)]
        for other in others { #expect(other != interned, "\(other)") }
        #expect(Set(others + [interned]).count == 5)
        #expect(CodeValue.interned(code: "V", name: nil, in: registry) == CodeValue(code: "V", name: nil))
    }

    @Test("JSON as the stored struct wrote it: code, and name only when there is one")
    func coding() throws {
        let registry = CodeValue.Registry(limit: 8, byteLimit: 1_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for value in [CodeValue.interned(code: "1", name: "Individual", in: registry), CodeValue(code: "1", name: "Individual")] {
            #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == #"{"code":"1","name":"Individual"}"#)
            #expect(try JSONDecoder().decode(CodeValue.self, from: encoder.encode(value)) == value)
        }
        let unnamed = CodeValue.interned(code: "Q", name: nil, in: registry)
        #expect(String(decoding: try encoder.encode(unnamed), as: UTF8.self) == #"{"code":"Q"}"#)
        #expect(try JSONDecoder().decode(CodeValue.self, from: Data(#"{"code":"Q"}"#.utf8)) == unnamed)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CodeValue.self, from: Data(#"{"name":"x"}"#.utf8)) }
        #expect("\(unnamed)" == #"CodeValue(code: "Q", name: nil)"#)
        #expect("\(CodeValue(code: "V", name: "Valid"))" == #"CodeValue(code: "V", name: Optional("Valid"))"#)
    }

    @Test("the registry keeps one entry per code and name, at most its limit; past it values own their entry")
    func limit() {
        let registry = CodeValue.Registry(limit: 3, byteLimit: 1_000)
        let first = (1...3).map { CodeValue.interned(code: "\($0)", name: "name \($0)", in: registry) }
        #expect(first.allSatisfy(\.isInterned) && registry.count == 3)
        let again = CodeValue.interned(code: "2", name: "name 2", in: registry)
        #expect(again.isInterned && registry.count == 3 && again == first[1])
        let past = CodeValue.interned(code: "4", name: "name 4", in: registry)
        #expect(!past.isInterned && registry.count == 3)
        #expect(past.code == "4" && past.name == "name 4")
    }

    @Test("the registry keeps at most its bytes of text: a long name past them is owned, shorter ones still fit")
    func byteLimit() {
        let registry = CodeValue.Registry(limit: 100, byteLimit: 64)
        let first = CodeValue.interned(code: "A", name: String(repeating: "n", count: 40), in: registry)   // 41 bytes
        let long = CodeValue.interned(code: "B", name: String(repeating: "m", count: 30), in: registry)    // 31 more: past 64
        let short = CodeValue.interned(code: "C", name: "Valid", in: registry)                              // 6 more: 47
        #expect(first.isInterned && !long.isInterned && short.isInterned && registry.count == 2)
        #expect(long.name == String(repeating: "m", count: 30) && long == CodeValue(code: "B", name: String(repeating: "m", count: 30)))
        let huge = CodeValue.interned(code: String(repeating: "x", count: 1 << 20), name: nil, in: CodeValue.Registry(limit: 100, byteLimit: 1_000))
        #expect(!huge.isInterned && huge.code.utf8.count == 1 << 20)
    }

    @Test("eight threads interning the same codes get equal values and one entry each")
    func concurrent() async {
        let registry = CodeValue.Registry(limit: 64, byteLimit: 10_000)
        let values = await withTaskGroup(of: [CodeValue].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { CodeValue.interned(code: "\($0 % 32)", name: "name \($0 % 32)", in: registry) } }
            }
            return await group.reduce(into: [[CodeValue]]()) { $0.append($1) }
        }
        #expect(registry.count == 32)
        #expect(values.allSatisfy { $0 == values[0] && $0.allSatisfy(\.isInterned) })
        #expect(values[0].enumerated().allSatisfy { $0.element.code == "\($0.offset % 32)" })
    }
}
