import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideWorkers
import Foundation

/// What changed between two builds of the reference data: the morning-after report.
///
/// ```swift
/// let report = try ChangeReport.aircraft(old: AircraftBundle(path: "previous/aircraft.fgb"),
///                                        new: AircraftBundle(path: "output/aircraft.fgb"))
/// print(report.markdown)
/// ```
public struct ChangeReport: Sendable, Codable, Equatable {
    /// One changed record and the fields that differ.
    public struct Changed: Sendable, Codable, Equatable {
        public let key: String
        public let name: String
        public let fields: [String]
    }

    /// Added, removed and changed records of one kind, with totals.
    public struct Section: Sendable, Codable, Equatable {
        public var title: String
        public var before: Int
        public var after: Int
        public var added: [String] = []
        public var removed: [String] = []
        public var changed: [Changed] = []
        /// Named counts for changes not listed one by one (`ownerChanged`).
        public var counts: [String: Int] = [:]
        /// What a record missing from the newer build is called: `deregistered` for
        /// registrations, `gone` for observed species; nil for `removed`.
        public var removedAs: String?
    }

    /// How the Markdown page names a count (`ownerChanged` → "with a new owner").
    static let countNames = ["ownerChanged": "with a new owner"]

    public var sections: [Section]

    /// The report as a readable Markdown page (at most `listLimit` keys per list).
    public func markdown(listLimit: Int = 50) -> String {
        var out = ["# Reference data changes", ""]
        for s in sections {
            out.append("## \(s.title)")
            out.append("")
            out.append(Self.summary(s))
            func list(_ title: String, _ items: [String]) {
                guard !items.isEmpty else { return }
                out.append("")
                out.append("### \(title)")
                let shown = max(0, listLimit)   // prefix(-1) traps
                for item in items.prefix(shown) { out.append("- \(item)") }
                if items.count > shown { out.append("- … and \(items.count - shown) more") }
            }
            list("Added", s.added)
            let removed = s.removedAs ?? "removed"
            list(removed.prefix(1).uppercased() + removed.dropFirst(), s.removed)
            list("Changed", s.changed.map { "\($0.key) \($0.name): \($0.fields.joined(separator: ", "))" })
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// `3,535 records, no changes` or `20 → 21 records: 1 added, 1 deregistered, 1 changed (1 with a new owner)`.
    static func summary(_ s: Section) -> String {
        func n(_ value: Int) -> String { formatCount(value) }
        let total = s.before == s.after ? formatCount(s.after, "record") : "\(n(s.before)) → \(n(s.after)) records"
        let parts = [(s.added.count, "added"), (s.removed.count, s.removedAs ?? "removed"), (s.changed.count, "changed")]
            .filter { $0.0 > 0 }.map { "\(n($0.0)) \($0.1)" }
        let notes = s.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\(n($0.value)) \(countNames[$0.key] ?? $0.key)" }
        guard !parts.isEmpty || !notes.isEmpty else { return total + ", no changes" }
        return total + ": " + (parts.isEmpty ? "none added, removed or changed" : parts.joined(separator: ", "))
            + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
    }
}

extension ChangeReport {
    private typealias S = AircraftSchema

    /// Models by ACFTREF code and engines by ENGINE code (with the changed fields), and
    /// registrations: added, deregistered, changed owner, changed otherwise.
    public static func aircraft(old: AircraftBundle, new: AircraftBundle) -> ChangeReport {
        let strings = StringPoolCorrespondence(old: old.strings, new: new.strings)
        var models = Section(title: "Aircraft models (ACFTREF)", before: old.modelCount, after: new.modelCount)
        let modelColumns = S.ModelColumn.allCases
        mergeJoin(old.modelKeys, new.modelKeys,
                  oldKey: { old.strings.bytes(old.models.value($0, .code)) }, newKey: { new.strings.bytes(new.models.value($0, .code)) },
                  removed: { models.removed.append(old.string(old.models.value($0, .code))) },
                  added: { models.added.append(new.string(new.models.value($0, .code))) },
                  both: { o, n in
                      guard rowsDiffer(old.models, o, new.models, n, columns: modelColumns, strings: strings) else { return }
                      let a = ModelRecord(bundle: old, row: o).info, b = ModelRecord(bundle: new, row: n).info
                      let fields = differingProperties(a, b)
                      if !fields.isEmpty { models.changed.append(Changed(key: b.code, name: "\(b.manufacturer) \(b.model)", fields: fields)) }
                  })

        var engines = Section(title: "Engines (ENGINE)", before: old.engineCount, after: new.engineCount)
        mergeJoin(old.engineKeys, new.engineKeys,
                  oldKey: { old.strings.bytes(old.engines.value($0, .code)) }, newKey: { new.strings.bytes(new.engines.value($0, .code)) },
                  removed: { engines.removed.append(old.string(old.engines.value($0, .code))) },
                  added: { engines.added.append(new.string(new.engines.value($0, .code))) },
                  both: { o, n in
                      guard rowsDiffer(old.engines, o, new.engines, n, columns: S.EngineColumn.allCases, strings: strings) else { return }
                      let a = EngineRecord(bundle: old, row: o).info, b = EngineRecord(bundle: new, row: n).info
                      let fields = differingProperties(a, b)
                      if !fields.isEmpty { engines.changed.append(Changed(key: b.code, name: "\(b.manufacturer) \(b.model)", fields: fields)) }
                  })

        var registrations = Section(title: "Registrations (MASTER)", before: old.registrationCount, after: new.registrationCount)
        registrations.removedAs = "deregistered"
        var ownerChanged = 0
        // Row references differ between builds; the model and engine codes are compared instead.
        let registrationColumns = S.RegistrationColumn.allCases.filter { $0 != .modelRow && $0 != .engineRow }
        mergeJoin(old.registrationKeys, new.registrationKeys,
                  oldKey: { old.strings.bytes(old.registrations.value($0, .nNumber)) },
                  newKey: { new.strings.bytes(new.registrations.value($0, .nNumber)) },
                  removed: { registrations.removed.append(old.string(old.registrations.value($0, .nNumber))) },
                  added: { registrations.added.append(new.string(new.registrations.value($0, .nNumber))) },
                  both: { o, n in
                      guard rowsDiffer(old.registrations, o, new.registrations, n, columns: registrationColumns, strings: strings) else { return }
                      let a = RegistrationRecord(bundle: old, row: o), b = RegistrationRecord(bundle: new, row: n)
                      if compare(old.strings.bytes(old.registrations.value(o, .name)), new.strings.bytes(new.registrations.value(n, .name))) != 0 {
                          ownerChanged += 1
                      }
                      let fields = differingRegistrationFields(a.info, b.info).filter { $0 != "model" && $0 != "engine" }
                      if !fields.isEmpty { registrations.changed.append(Changed(key: b.nNumber, name: b.name, fields: fields)) }
                  })
        registrations.counts["ownerChanged"] = ownerChanged
        return ChangeReport(sections: [models, engines, registrations])
    }

    /// Seed species by bird id: added, removed, changed (with the fields).
    public static func birds(old: BirdsBundle, new: BirdsBundle) -> ChangeReport {
        var section = Section(title: "Species (seed database)", before: old.speciesCount, after: new.speciesCount)
        let before = Dictionary(old.allSpecies.map { ($0.id, $0.info) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.allSpecies.map { ($0.id, $0.info) }, uniquingKeysWith: { first, _ in first })
        for id in after.keys.sorted() where before[id] == nil { section.added.append("\(id) \(after[id]!.commonName)") }
        for id in before.keys.sorted() where after[id] == nil { section.removed.append("\(id) \(before[id]!.commonName)") }
        for id in after.keys.sorted() {
            guard let a = before[id], let b = after[id] else { continue }
            let fields = differingFields(a, b)
            if !fields.isEmpty { section.changed.append(Changed(key: id, name: b.commonName, fields: fields)) }
        }
        return ChangeReport(sections: [section, observed(old: old, new: new)])
    }

    /// The users' observed source: species added or gone, and observation counts that moved.
    static func observed(old: BirdsBundle, new: BirdsBundle) -> Section {
        func bySpecies(_ bundle: BirdsBundle) -> [String: (name: String, observations: Int)] {
            var out: [String: (name: String, observations: Int)] = [:]
            for o in bundle.observedSpecies() {
                let key = o.taxon.speciesCode.isEmpty ? o.taxon.scientificName : o.taxon.speciesCode
                out[key] = (o.commonName, (out[key]?.observations ?? 0) + o.observations)
            }
            return out
        }
        let before = bySpecies(old), after = bySpecies(new)
        var section = Section(title: "Observed species (users' exports)", before: before.count, after: after.count)
        section.removedAs = "gone"
        section.counts["observations"] = new.observationCount
        for key in after.keys.sorted() where before[key] == nil { section.added.append("\(key) \(after[key]!.name)") }
        for key in before.keys.sorted() where after[key] == nil { section.removed.append("\(key) \(before[key]!.name)") }
        for key in after.keys.sorted() {
            guard let a = before[key], let b = after[key], a.observations != b.observations else { continue }
            section.changed.append(Changed(key: key, name: b.name, fields: ["observations \(a.observations) → \(b.observations)"]))
        }
        return section
    }

    /// Walks two key tables sorted the same way, comparing full keys where packed keys tie.
    static func mergeJoin(_ a: KeyTable, _ b: KeyTable, oldKey: (Int) -> UnsafeRawBufferPointer,
                                  newKey: (Int) -> UnsafeRawBufferPointer,
                                  removed: (Int) -> Void, added: (Int) -> Void, both: (Int, Int) -> Void) {
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count { removed(i); i += 1; continue }
            if i == a.count { added(j); j += 1; continue }
            let x = a[i], y = b[j]
            if x < y { removed(i); i += 1 }
            else if x > y { added(j); j += 1 }
            else {
                let order = compare(oldKey(i), newKey(j))
                if order == 0 { both(i, j); i += 1; j += 1 }
                else if order < 0 { removed(i); i += 1 }
                else { added(j); j += 1 }
            }
        }
    }

    /// Whether two rows differ in any of `columns`: strings by their bytes (through `strings`:
    /// the two pools differ), numbers by value. Every registration of two full builds goes
    /// through here, so the columns are worked out once by the caller.
    private static func rowsDiffer<C: RowColumn>(_ a: RowTable<C>, _ i: Int, _ b: RowTable<C>, _ j: Int,
                                                 columns: [C], strings: StringPoolCorrespondence) -> Bool {
        for column in columns {
            let x = a.value(i, column), y = b.value(j, column)
            if column.kind == .string {
                if !strings.equal(x, y) { return true }
            } else if x != y {
                return true
            }
        }
        return false
    }

    /// The stored properties whose values differ between two records, by name: what
    /// `differingFields` answers for a record whose `Codable` is synthesized (its JSON keys are
    /// its property names, a nil optional is left out) and whose properties are all `Hashable`
    /// (equal values encode equally), without encoding and decoding JSON twice per record: a
    /// day's changed registrations took most of a full-size diff's time that way.
    package static func differingProperties<T: Hashable & Encodable>(_ a: T, _ b: T) -> [String] {
        guard a != b else { return [] }
        var names: [String] = []
        for (x, y) in zip(Mirror(reflecting: a).children, Mirror(reflecting: b).children) {
            // A nil optional casts to nil, as JSON leaves it out: nil and nil are equal.
            guard let name = x.label, x.value as? AnyHashable != y.value as? AnyHashable else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// The top-level JSON keys whose values differ between two encodable records.
    package static func differingFields<T: Encodable>(_ a: T, _ b: T) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let da = try? encoder.encode(a), let db = try? encoder.encode(b), da != db,
              let x = (try? JSONSerialization.jsonObject(with: da)) as? [String: Any],
              let y = (try? JSONSerialization.jsonObject(with: db)) as? [String: Any] else { return [] }
        return Set(x.keys).union(y.keys).sorted().filter { key in
            let u = x[key].flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }
            let v = y[key].flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }
            return u != v
        }
    }
}

extension ChangeReport {
    /// The report between two artifacts of the same kind (aircraft, manufacturer index or birds), chosen by their header.
    ///
    /// ```swift
    /// let report = try ChangeReport.between(old: "output/previous/birds.fgb", new: "output/current/birds.fgb")
    /// ```
    public static func between(old: String, new: String) throws(FieldGuideError) -> ChangeReport {
        let oldKind: FourCC, newKind: FourCC
        do {
            oldKind = try ArtifactFile(path: old, verification: .headerOnly).kind
            newKind = try ArtifactFile(path: new, verification: .headerOnly).kind
        } catch {
            throw FieldGuideError(error)
        }
        guard oldKind == newKind else {
            throw FieldGuideError(.wrongKind(path: new, expected: "\(oldKind)", found: "\(newKind)"))
        }
        switch oldKind {
        case AircraftSchema.kind:
            let (o, n) = try openBoth(old, new) { path throws(FieldGuideError) in try AircraftBundle(path: path) }
            return aircraft(old: o, new: n)
        case BirdsSchema.kind:
            let (o, n) = try openBoth(old, new) { path throws(FieldGuideError) in try BirdsBundle(path: path) }
            return birds(old: o, new: n)
        case AircraftIndexSchema.kind:
            let (o, n) = try openBoth(old, new) { path throws(FieldGuideError) in try AircraftIndex(path: path) }
            return index(old: o, new: n)
        default: throw FieldGuideError(.wrongKind(path: new, expected: "an aircraft, manufacturer index or birds artifact", found: "\(newKind)"))
        }
    }

    /// Opens the two artifacts at once, the old one's error first: each full check (a CRC-32 of
    /// every section, most of a diff's time on full-size files) gets a core of its own.
    static func openBoth<Bundle: Sendable>(_ old: String, _ new: String,
                                           _ open: @escaping @Sendable (String) throws(FieldGuideError) -> Bundle) throws(FieldGuideError) -> (Bundle, Bundle) {
        let opened = Concurrently.run(2) { (index: Int) throws(FieldGuideError) -> Bundle in try open(index == 0 ? old : new) }
        return (try opened[0].get(), try opened[1].get())
    }

    /// Several reports as one (the sections in order; a section equal to an earlier one, such
    /// as the ACFTREF models both aircraft artifacts hold, once).
    public static func combined(_ reports: [ChangeReport]) -> ChangeReport {
        var sections: [Section] = []
        for section in reports.flatMap(\.sections) where !sections.contains(section) { sections.append(section) }
        return ChangeReport(sections: sections)
    }
}
