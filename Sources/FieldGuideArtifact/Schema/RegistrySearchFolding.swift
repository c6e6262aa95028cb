/// The one way the registry search folds owner names and model names: the emit stage stores
/// these forms in the aircraft artifact's search sections, the query library folds what is
/// asked the same way, so case, punctuation and spacing never decide a match.
///
/// Owner names split into words at anything that is not a letter or digit, except `'`, `.`
/// and `` ` ``, which are dropped inside a word (`O'BRIEN` → `OBRIEN`, `U.S. AIR` → `US`,
/// `AIR`). Model names keep only their letters and digits (`SR-22` → `SR22`). ASCII letters
/// are upper-cased; other text goes through `NameFolding` first.
///
/// ```swift
/// RegistrySearchFolding.words("Delta Air-Lines, Inc.")   // ["DELTA", "AIR", "LINES", "INC"]
/// RegistrySearchFolding.modelKey("bh-900 jet")           // "BH900JET"
/// ```
public enum RegistrySearchFolding {
    /// What a byte is to the folding.
    private enum Class { case letter, dropped, separator }

    @inline(__always)
    private static func classify(_ byte: UInt8) -> Class {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...: return .letter
        case UInt8(ascii: "'"), UInt8(ascii: "."), UInt8(ascii: "`"): return .dropped
        default: return .separator
        }
    }

    /// Calls `body` with each folded word of an owner name, in order (repeats included).
    /// No allocation for ASCII text: the emit stage folds every name of MASTER with it.
    public static func forEachWord(in name: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        if name.contains(where: { $0 >= 0x80 }) {
            let folded = Array(NameFolding.fold(String(decoding: name, as: UTF8.self)).utf8)
            folded.withUnsafeBytes { foldedWords($0, separating: true, body) }
        } else {
            foldedWords(name, separating: true, body)
        }
    }

    /// The folded words of an owner name.
    public static func words(_ name: String) -> [String] {
        var words: [String] = []
        var name = name
        name.withUTF8 { forEachWord(in: UnsafeRawBufferPointer($0)) { words.append(String(decoding: $0, as: UTF8.self)) } }
        return words
    }

    /// A model name's letters and digits, upper-cased: `"SR-22 G3"` → `"SR22G3"`.
    ///
    /// `append` is a local function, not a closure kept in a constant: such a closure may escape,
    /// so `key` was boxed on the heap and the box freed again, about a third of a key's 1,200
    /// instructions (callgrind: `emit-aircraft` keys every model, and a model-name search keys
    /// each candidate registration's model).
    public static func modelKey(_ model: UnsafeRawBufferPointer) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(model.count)
        func append(_ word: UnsafeRawBufferPointer) { key.append(contentsOf: word) }
        if model.contains(where: { $0 >= 0x80 }) {
            let folded = Array(NameFolding.fold(String(decoding: model, as: UTF8.self)).utf8)
            folded.withUnsafeBytes { foldedWords($0, separating: false, append) }
        } else {
            foldedWords(model, separating: false, append)
        }
        return key
    }

    /// `modelKey` of a string.
    public static func modelKey(_ model: String) -> String {
        var model = model
        return String(decoding: model.withUTF8 { modelKey(UnsafeRawBufferPointer($0)) }, as: UTF8.self)
    }

    /// The words of already folded text (ASCII letters still upper-cased here); `separating`
    /// false joins everything into one word.
    private static func foldedWords(_ text: UnsafeRawBufferPointer, separating: Bool, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(text.count, 1)) { buffer in
            var length = 0
            func flush() {
                if length > 0 { body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<length])) }
                length = 0
            }
            for byte in text {
                switch classify(byte) {
                case .letter:
                    buffer[length] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
                    length += 1
                case .dropped: continue
                case .separator: if separating { flush() }
                }
            }
            flush()
        }
    }
}

/// Which registrants' owner names and street addresses an aircraft artifact withholds
/// (`emit-aircraft --redact individuals`), as its `PRIV` section records it.
///
/// A withheld registration keeps its city, state, ZIP code cut to five digits, county, region
/// and country; its owner name, co-owner names and street lines are empty in the artifact and
/// absent from the owner search index.
///
/// ```swift
/// OwnerRedaction.individuals.withholds(registrantType: "1")   // true (Individual)
/// OwnerRedaction.individuals.withholds(registrantType: "3")   // false (Corporation)
/// ```
public struct OwnerRedaction: Sendable, Hashable, CustomStringConvertible {
    /// Bit `k` set: owners of registrant type `k` (TYPE REGISTRANT, `1`…`9`) are withheld.
    public let withheldRegistrantTypes: UInt32

    public init(withheldRegistrantTypes: UInt32) { self.withheldRegistrantTypes = withheldRegistrantTypes }

    /// Nothing withheld: the complete registry (the default).
    public static let none = OwnerRedaction(withheldRegistrantTypes: 0)
    /// Registrant type 1, Individual: for a bundle shipped to the public (an app store).
    public static let individuals = OwnerRedaction(withheldRegistrantTypes: 1 << 1)

    /// The policies by the name `emit-aircraft --redact` takes.
    public static let policies: [(name: String, redaction: OwnerRedaction)] = [("none", .none), ("individuals", .individuals)]

    /// The policy named `name` (`none`, `individuals`).
    public init?(policy name: String) {
        guard let policy = Self.policies.first(where: { $0.name == name }) else { return nil }
        self = policy.redaction
    }

    /// Whether owners of this registrant type code (`"1"`) are withheld.
    public func withholds(registrantType code: String) -> Bool {
        guard code.utf8.count == 1, let digit = code.utf8.first, digit >= 0x30, digit <= 0x39 else { return false }
        return withholds(registrantTypeDigit: digit)
    }

    /// `withholds(registrantType:)` for the code's one ASCII digit.
    @inlinable
    public func withholds(registrantTypeDigit digit: UInt8) -> Bool {
        digit >= 0x30 && digit <= 0x39 && withheldRegistrantTypes & (1 << UInt32(digit - 0x30)) != 0
    }

    public var isNone: Bool { withheldRegistrantTypes == 0 }

    /// `none`, `individuals`, or the registrant type codes withheld (`types 1, 4`).
    public var description: String {
        if let policy = Self.policies.first(where: { $0.redaction == self }) { return policy.name }
        return "types " + (0..<32).filter { withheldRegistrantTypes & (1 << UInt32($0)) != 0 }.map(String.init).joined(separator: ", ")
    }
}
