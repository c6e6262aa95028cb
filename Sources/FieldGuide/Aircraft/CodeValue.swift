import Foundation

/// A code with its display name (nil when the tables do not list it).
///
/// ```swift
/// record.status            // CodeValue(code: "V", name: "Valid Registration")
/// record.status?.name      // "Valid Registration"
/// ```
///
/// A bundle's code values are interned (`interned(code:name:)`): the value holds an unmanaged
/// reference to an entry that lives as long as the process, so copying it changes no
/// reference count. Any other value (an unlisted code, a decoded one) owns its entry.
///
/// Why: `RegistrationRecord.info` copies a dozen code values into the record it returns, and
/// the caller's release of the record drops them again. With two strings stored here, each
/// copy was two `swift_bridgeObjectRetain` calls and each drop two releases; with counting
/// skipped for the names (`ImmortalText`) the calls still ran: callgrind counted 6,912
/// instructions a `.info` with them, 6,057 without. Equality, hashing and coding are the code's
/// and name's, as before.
public struct CodeValue: Sendable, Hashable, Codable {
    private let storage: Storage

    public var code: String { storage.withEntry { $0.code } }
    public var name: String? { storage.withEntry { $0.name } }

    init(code: String, name: String?) { storage = .owned(Entry(code: code, name: name)) }

    private init(_ storage: Storage) { self.storage = storage }

    /// The value of `code` and `name` held by the process-wide registry, which never frees
    /// what it holds (at most `Registry.limit` entries of `Registry.byteLimit` bytes of text in
    /// all; past either, the value owns its entry).
    static func interned(code: String, name: String?, in registry: Registry = .shared) -> CodeValue {
        registry.entry(code: code, name: name).map { CodeValue(.interned(Unmanaged.passUnretained($0))) }
            ?? CodeValue(code: code, name: name)
    }

    /// Whether the value's entry is a registry's (for tests).
    var isInterned: Bool { if case .interned = storage { true } else { false } }

    public static func == (a: CodeValue, b: CodeValue) -> Bool {
        a.storage.withEntry { x in b.storage.withEntry { y in x === y || (x.code == y.code && x.name == y.name) } }
    }

    public func hash(into hasher: inout Hasher) {
        storage.withEntry { hasher.combine($0.code); hasher.combine($0.name) }
    }

    private enum CodingKeys: String, CodingKey { case code, name }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(code: try container.decode(String.self, forKey: .code), name: try container.decodeIfPresent(String.self, forKey: .name))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encodeIfPresent(name, forKey: .name)
    }
}

extension CodeValue: CustomStringConvertible {
    public var description: String { "CodeValue(code: \(String(reflecting: code)), name: \(String(reflecting: name)))" }
}

extension CodeValue {
    /// One code and name.
    final class Entry: Sendable {
        let code: String
        let name: String?
        init(code: String, name: String?) { (self.code, self.name) = (code, name) }
    }

    /// Where a value's entry is: in the registry (unmanaged: the registry keeps it alive), or
    /// owned by the value.
    private enum Storage: @unchecked Sendable {
        case interned(Unmanaged<Entry>)
        case owned(Entry)

        @inline(__always)
        func withEntry<T>(_ body: (Entry) -> T) -> T {
            switch self {
            case .interned(let entry): return entry._withUnsafeGuaranteedRef(body)
            case .owned(let entry): return body(entry)
            }
        }
    }

    /// The process's interned entries: one per distinct code and name, never freed, so
    /// bounded: a crafted artifact's codes cannot pin more than `limit` entries and
    /// `byteLimit` bytes of text.
    final class Registry: @unchecked Sendable {
        /// The FAA's code tables hold a few hundred codes, a few KB of text.
        static let shared = Registry(limit: 4_096, byteLimit: 256 * 1024)

        /// The most entries kept.
        let limit: Int
        /// The most bytes of text (codes and names) kept.
        let byteLimit: Int
        private let lock = NSLock()
        private var entries: [Key: Entry] = [:]
        private var bytes = 0

        private struct Key: Hashable {
            let code: String
            let name: String?
        }

        init(limit: Int, byteLimit: Int) { (self.limit, self.byteLimit) = (limit, byteLimit) }

        var count: Int { lock.withLock { entries.count } }

        /// The entry of `code` and `name`, made the first time; nil when a new one would pass
        /// `limit` entries or `byteLimit` bytes.
        func entry(code: String, name: String?) -> Entry? {
            let key = Key(code: code, name: name)
            let size = code.utf8.count + (name?.utf8.count ?? 0)
            return lock.withLock {
                if let kept = entries[key] { return kept }
                guard entries.count < limit, size <= byteLimit - bytes else { return nil }
                let entry = Entry(code: code, name: name)
                entries[key] = entry
                bytes += size
                return entry
            }
        }
    }
}
