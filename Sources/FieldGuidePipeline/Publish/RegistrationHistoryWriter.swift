import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics

/// Writes a build's registry history (`history.fgb`): the previous build's history carried
/// forward, plus what changed per N-number between the previous build's aircraft artifact and
/// this one's (registered, deregistered, owner, status, address, model), each N-number keeping
/// its newest `HistorySchema.eventsPerNumber` events.
///
/// Deterministic: the bytes depend only on the previous history, the two artifacts and the
/// build's name. The first build has no events (nothing to compare against); its history
/// starts there. Written atomically.
///
/// ```swift
/// let counts = try RegistrationHistoryWriter.write(previous: oldHistory, old: oldBundle, new: newBundle,
///                                                  build: "20261122T031500Z", to: "staging/build/history.fgb")
/// ```
package enum RegistrationHistoryWriter {
    package static let file = "history.fgb"
    typealias S = HistorySchema

    /// Writes the history; returns (events added by this build, events kept in all).
    @discardableResult
    package static func write(previous: RegistrationHistory?, old: AircraftBundle?, new: AircraftBundle, build: String,
                              to path: String) throws(LocatedError) -> (added: Int, kept: Int) {
        var events = previous.map { Array($0.allEvents) } ?? []
        let carried = events.count
        if let old { events += changes(old: old, new: new, build: build) }
        let added = events.count - carried
        // By N-number, the carried events (already in order) before this build's: stable.
        let order = events.indices.sorted { a, b in
            events[a].nNumber != events[b].nNumber ? Array(events[a].nNumber.utf8).lexicographicallyPrecedes(events[b].nNumber.utf8) : a < b
        }
        var kept: [HistoryEvent] = []
        var start = 0
        while start < order.count {
            var end = start
            while end < order.count, events[order[end]].nNumber == events[order[start]].nNumber { end += 1 }
            kept += order[max(start, end - S.eventsPerNumber)..<end].map { events[$0] }
            start = end
        }
        let firstBuild = previous?.firstBuild ?? build
        let builds = (previous?.buildCount ?? 0) + 1
        try artifact(kept, firstBuild: firstBuild, lastBuild: build, builds: builds).write(to: path)
        return (added, kept.count)
    }

    /// This build's events: the registrations of `old` and `new` walked in N-number order.
    static func changes(old: AircraftBundle, new: AircraftBundle, build: String) -> [HistoryEvent] {
        var out: [HistoryEvent] = []
        func event(_ n: String, _ kind: S.EventKind, _ before: String, _ after: String) {
            out.append(HistoryEvent(nNumber: n, build: build, kind: kind, before: before, after: after))
        }
        ChangeReport.mergeJoin(old.registrationKeys, new.registrationKeys,
                               oldKey: { old.strings.bytes(old.registrations.value($0, .nNumber)) },
                               newKey: { new.strings.bytes(new.registrations.value($0, .nNumber)) },
                               removed: { let r = RegistrationRecord(bundle: old, row: $0); event(r.nNumber, .deregistered, r.name, "") },
                               added: { let r = RegistrationRecord(bundle: new, row: $0); event(r.nNumber, .registered, "", r.name) },
                               both: { o, n in
                                   let a = RegistrationRecord(bundle: old, row: o), b = RegistrationRecord(bundle: new, row: n)
                                   let pairs: [(S.EventKind, String, String)] = [
                                       (.owner, a.name, b.name), (.status, a.status?.code ?? "", b.status?.code ?? ""),
                                       (.address, address(a), address(b)), (.model, a.modelCode, b.modelCode),
                                   ]
                                   for (kind, x, y) in pairs where x != y { event(b.nNumber, kind, x, y) }
                               })
        return out
    }

    /// `street, street2, city state zip`.
    static func address(_ r: RegistrationRecord) -> String {
        let place = [r.city, r.state, r.zip].filter { !$0.isEmpty }.joined(separator: " ")
        return [r.street, r.street2, place].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The artifact of `events` (in their final order).
    static func artifact(_ events: [HistoryEvent], firstBuild: String, lastBuild: String, builds: Int) -> ArtifactBuilder {
        var pool = StringPoolBuilder()
        var table = RowTableBuilder<S.EventColumn>()
        for e in events {
            let row = table.appendRow()
            table[row, .nNumber] = pool.intern(e.nNumber)
            table[row, .build] = pool.intern(e.build)
            table[row, .kind] = e.kind.rawValue
            table[row, .before] = pool.intern(e.before)
            table[row, .after] = pool.intern(e.after)
        }
        var info = RowTableBuilder<S.InfoColumn>()
        let row = info.appendRow()
        info[row, .firstBuild] = pool.intern(firstBuild)
        info[row, .lastBuild] = pool.intern(lastBuild)
        info[row, .builds] = UInt32(clamping: builds)
        let (bytes, remap) = pool.finish()
        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian }), bytes: bytes)
        artifact.addSection(S.Section.events, &table, strings: remap)
        artifact.addSection(S.Section.info, &info, strings: remap)
        artifact.addSection(S.Section.eventKeys, keys: events.map { PackedKey.pack($0.nNumber) })
        return artifact
    }
}
