import FieldGuideArtifact

/// The registry history this installation has seen (`history.fgb`, kind `HIST`): per N-number,
/// the owner, status, address and model changes between consecutive published builds, newest
/// last, at most `HistorySchema.eventsPerNumber` each.
///
/// ```swift
/// let history = try RegistrationHistory(path: "output/history.fgb")
/// for event in history.events(of: "N4477") {
///     print(event.build, event.kind.name, event.before, "→", event.after)
/// }
/// ```
public final class RegistrationHistory: FieldGuideBundle {
    typealias S = HistorySchema

    public let artifact: ArtifactFile
    let strings: StringPool
    let events: RowTable<S.EventColumn>
    let keys: KeyTable
    let info: RowTable<S.InfoColumn>

    /// Opens and checks the history at `path` (`.full`: every section's CRC-32).
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        do throws(ArtifactError) {
            let opened = try OpenedArtifact(path: path, kind: S.kind, verification: verification)
            artifact = opened.file
            strings = try opened.strings(S.Section.strings)
            events = try opened.rows(S.Section.events)
            keys = try opened.keys(S.Section.eventKeys, rows: events.count)
            info = try opened.rows(S.Section.info, count: 1)
        } catch {
            throw FieldGuideError(error)
        }
    }

    public var eventCount: Int { events.count }
    /// The first build the history covers (its run id), and the latest.
    public var firstBuild: String { strings.string(info.value(0, .firstBuild)) }
    public var lastBuild: String { strings.string(info.value(0, .lastBuild)) }
    /// How many published builds the history has seen.
    public var buildCount: Int { Int(info.value(0, .builds)) }

    /// The events of an N-number (`N4477`, `n4477`, `4477`), oldest first.
    public func events(of registration: String) -> [HistoryEvent] {
        guard let key = AircraftBundle.registrationKey(registration), key.count <= 8 else { return [] }
        let packed = PackedKey.pack(key.bytes)
        var row = keys.lowerBound(packed)
        var out: [HistoryEvent] = []
        while row < keys.count, keys[row] == packed {
            out.append(event(row))
            row += 1
        }
        return out
    }

    /// Every event, by N-number, then build, then kind.
    public var allEvents: LazyMapCollection<Range<Int>, HistoryEvent> {
        (0..<events.count).lazy.map { self.event($0) }
    }

    private func event(_ row: Int) -> HistoryEvent {
        let raw = events.value(row, .kind)
        return HistoryEvent(nNumber: strings.string(events.value(row, .nNumber)), build: strings.string(events.value(row, .build)),
                            kind: S.EventKind(rawValue: raw) ?? .status, before: strings.string(events.value(row, .before)),
                            after: strings.string(events.value(row, .after)))
    }
}

/// One change between two published builds.
public struct HistoryEvent: Sendable, Hashable, Codable {
    public let nNumber: String
    /// The build that saw it (`20261122T031500Z`).
    public let build: String
    public let kind: HistorySchema.EventKind
    public let before: String
    public let after: String

    public init(nNumber: String, build: String, kind: HistorySchema.EventKind, before: String, after: String) {
        self.nNumber = nNumber; self.build = build; self.kind = kind; self.before = before; self.after = after
    }

    /// `2026-11-22` from the build's run id, or the id as it is.
    public var date: String {
        let b = Array(build.utf8)
        guard b.count >= 8, b[0..<8].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return build }
        let d = String(decoding: b[0..<8], as: UTF8.self)
        return "\(d.prefix(4))-\(d.dropFirst(4).prefix(2))-\(d.suffix(2))"
    }
}
