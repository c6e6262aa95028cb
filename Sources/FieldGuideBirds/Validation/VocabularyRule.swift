import FieldGuideDiagnostics
/// Near-duplicate vocabulary values: two spellings of what is meant to be one value, found
/// by edit distance (one edit for values of 4+ characters, two for 7+).
///
/// Which spelling is the suspect: a value missing from a declared vocabulary (1.2's
/// `reference_data.locations`) loses to one in it; otherwise the rarer one; on a tie the one
/// that first appears later in the file.
///
/// ```swift
/// var locations = Vocabulary(name: "location")
/// locations.add("Desert", at: "/birds/3/validLocations/0")
/// locations.add("Dessert", at: "/birds/9/validLocations/1")
/// locations.suspects()   // ["Dessert": "Desert"]
/// ```
public struct Vocabulary: Sendable {
    public let name: String
    /// Value → pointers of its occurrences, in file order.
    public private(set) var occurrences: [String: [String]] = [:]
    /// Values in order of first occurrence.
    public private(set) var order: [String] = []
    public private(set) var declared: Set<String> = []

    public init(name: String) { self.name = name }

    public mutating func add(_ value: String, at pointer: String) {
        if occurrences[value] == nil { order.append(value) }
        occurrences[value, default: []].append(pointer)
    }

    public mutating func declare(_ value: String, at pointer: String) {
        declared.insert(value)
        add(value, at: pointer)
    }

    public func contains(_ value: String) -> Bool { occurrences[value] != nil }

    /// The most edits two values may differ by to count as the same value spelled twice.
    public static func allowedEdits(_ a: String, _ b: String) -> Int {
        let shorter = min(a.unicodeScalars.count, b.unicodeScalars.count)
        return shorter >= 7 ? 2 : shorter >= 4 ? 1 : 0
    }

    /// The value `value` is probably a misspelling of, if any (for values outside the vocabulary).
    public func nearest(to value: String) -> (value: String, edits: Int)? {
        var best: (value: String, edits: Int)?
        for candidate in order where candidate != value {
            let limit = Self.allowedEdits(value, candidate)
            guard limit > 0, let d = EditDistance.distance(value, candidate, limit: limit) else { continue }
            if best == nil || d < best!.edits { best = (candidate, d) }
        }
        return best
    }

    /// Suspect spelling → the spelling it is probably meant to be.
    public func suspects() -> [String: (value: String, edits: Int)] {
        var out: [String: (value: String, edits: Int)] = [:]
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        for i in order.indices {
            for j in order.indices where j > i {
                let a = order[i], b = order[j]
                let limit = Self.allowedEdits(a, b)
                guard limit > 0, let d = EditDistance.distance(a, b, limit: limit) else { continue }
                let suspect = pickSuspect(a, b, position: position)
                let intended = suspect == a ? b : a
                if let existing = out[suspect], existing.edits <= d { continue }
                out[suspect] = (intended, d)
            }
        }
        return out
    }

    private func pickSuspect(_ a: String, _ b: String, position: [String: Int]) -> String {
        let aDeclared = declared.contains(a), bDeclared = declared.contains(b)
        if aDeclared != bDeclared { return aDeclared ? b : a }
        let aCount = occurrences[a]?.count ?? 0, bCount = occurrences[b]?.count ?? 0
        if aCount != bCount { return aCount < bCount ? a : b }
        return position[a, default: 0] > position[b, default: 0] ? a : b
    }

    /// A warning at every occurrence of every suspect spelling.
    public func report(to sink: FindingSink) {
        let suspects = suspects()
        for value in order {
            guard let (intended, edits) = suspects[value] else { continue }
            let uses = occurrences[intended]?.count ?? 0
            for pointer in occurrences[value] ?? [] {
                sink.warning(.vocabulary, at: pointer, Self.message(name: name, value: value, intended: intended, edits: edits, uses: uses))
            }
        }
    }

    static func message(name: String, value: String, intended: String, edits: Int, uses: Int) -> String {
        "\(name) \"\(value)\" is \(edits == 1 ? "one edit" : "\(edits) edits") from \"\(intended)\" (used \(uses) \(uses == 1 ? "time" : "times")): did you mean \"\(intended)\"?"
    }
}
