import ArgumentParser
import FieldGuideArtifact
import FieldGuideCore
import Foundation
import FieldGuide
import StageCLI

extension FieldGuideCommand {
    /// `fieldguide status N…`: each N-number's status by MASTER, RESERVED and DEREG.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Whether N-numbers are active, deregistered, reserved, available or invalid.",
            discussion: """
                active: in MASTER; reserved: in RESERVED (type, expiration and purge dates); deregistered: \
                in DEREG only (every cancellation, newest first: date, reason, last owner); available: \
                a valid N-number in none of them; invalid: not a US N-number form. Every answer is \
                printed; the exit status is 2 when an argument is invalid, as for the other lookups.
                """)
        @Argument(help: "N-numbers (N250JT, n250jt or 250JT).") var registrations: [String]
        @OptionGroup var options: AircraftOptions

        struct Entry: Encodable {
            let input: String
            let nNumber: String?
            let status: RegistrationStatus.Kind
            let problem: String?
            let registration: RegistrationInfo?
            let reservation: ReservedInfo?
            let deregistrations: [DeregisteredInfo]
            /// False when the bundle holds no DEREG or RESERVED: `available` then means "not in MASTER".
            let complete: Bool
        }

        func run() throws {
            let bundle = try options.open()
            let entries = registrations.map { text in
                let s = bundle.status(of: text)
                return Entry(input: text, nNumber: s.nNumber, status: s.kind, problem: s.problem, registration: s.registration?.info,
                             reservation: s.reservation?.info, deregistrations: s.deregistrations.map(\.info),
                             complete: s.knowsDeregistered && s.knowsReserved)
            }
            try options.emit(entries) { entries.map(Self.render).joined(separator: "\n") }
            if let bad = entries.first(where: { $0.status == .invalid }) {
                throw StageFailure(.usageOrIO, "<registrations>: \(shown(bad.input)): \(bad.problem ?? "not a US N-number")")
            }
        }

        static func render(_ e: Entry) -> String {
            // Columns: the N-number (6 wide, as `N12345`), the status (12, as `deregistered`).
            let head = (e.nNumber ?? e.input).padding(toLength: max(6, (e.nNumber ?? e.input).count), withPad: " ", startingAt: 0)
                + "  " + e.status.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + "  "
            var out: [String] = []
            switch e.status {
            case .invalid:
                out.append(head + (e.problem ?? ""))
            case .active:
                let r = e.registration!
                let model = r.model.map { "\($0.manufacturer) \($0.model)" } ?? r.modelCode
                let owner = r.ownerWithheld ? "owner withheld" : r.name
                out.append(head + [describe(r.status) ?? "", model, [owner, place(r.city, r.state)].filter { !$0.isEmpty }.joined(separator: ", ")]
                    .filter { !$0.isEmpty }.joined(separator: "  "))
            case .reserved:
                let v = e.reservation!
                let dates = [("reserved", v.reserveDate), ("expires", v.expirationDate), ("purged", v.purgeDate)]
                    .compactMap { label, date in date.map { "\(label) \($0)" } }.joined(separator: ", ")
                let by = v.registrant.isEmpty ? "" : "by " + [v.registrant, place(v.city, v.state)].filter { !$0.isEmpty }.joined(separator: ", ")
                let change = v.changeNNumber.map { "change \($0)" } ?? ""
                out.append(head + [describe(v.reservationType) ?? "", dates, change, by].filter { !$0.isEmpty }.joined(separator: "  "))
            case .deregistered, .available:
                out.append(head + (e.complete || e.status == .deregistered ? "" : "(this bundle holds no DEREG or RESERVED: not in MASTER)"))
            }
            for d in e.deregistrations {
                let aircraft = [d.model.map { "\($0.manufacturer) \($0.model)" } ?? d.modelCode, d.serialNumber.isEmpty ? "" : "serial \(d.serialNumber)"]
                    .filter { !$0.isEmpty }.joined(separator: ", ")
                let owner = [d.name, place(d.city, d.state)].filter { !$0.isEmpty }.joined(separator: ", ")
                out.append("  cancelled \(d.cancelDate?.description ?? "(no date)")  \(d.reason)  last owner \(owner.isEmpty ? "not given" : owner)  (\(aircraft))")
            }
            out[0] = String(out[0].reversed().drop { $0 == " " }.reversed())
            return out.joined(separator: "\n")
        }

        static func place(_ city: String, _ state: String) -> String { [city, state].filter { !$0.isEmpty }.joined(separator: " ") }
    }
}

extension FieldGuideCommand {
    /// `fieldguide history N…`: the changes this installation's builds have seen, and DEREG's records.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The ownership and status changes this installation has seen for N-numbers, and DEREG's records.",
            discussion: """
                Changes come from the history each published build carries (history.fgb beside the \
                aircraft artifact, or --history): owner, status, address and model, build by build, \
                oldest first, the newest \(HistorySchema.eventsPerNumber) per N-number. DEREG's \
                cancellations come from the aircraft artifact.
                """)
        @Argument(help: "N-numbers (N250JT, n250jt or 250JT).") var registrations: [String]
        @Option(help: "The registry history (default: history.fgb beside --bundle).") var history: String?
        @OptionGroup var options: AircraftOptions

        struct Covered: Encodable { let firstBuild: String; let lastBuild: String; let builds: Int }
        struct Entry: Encodable {
            let input: String
            let nNumber: String
            let events: [HistoryEvent]
            let deregistrations: [DeregisteredInfo]
        }
        struct Report: Encodable { let history: Covered?; let entries: [Entry] }

        func validate() throws {
            try requirePath(history, option: "--history")
            for text in registrations where !USModeS.isValid(nNumber: AircraftBundle.normalizedRegistration(text) ?? text) {
                throw ValidationError("<registrations>: \(shown(text)): not a US N-number (expected \(AircraftBundle.nNumberForm))")
            }
        }

        func run() throws {
            let bundle = try options.open()
            let beside = FilePath.directory(of: options.path)
            let path = history ?? (beside.isEmpty ? "" : beside + "/") + "history.fgb"
            var recorded: RegistrationHistory?
            if history != nil || FileManager.default.fileExists(atPath: path) {
                do { recorded = try RegistrationHistory(path: path) } catch { throw error.underlying }
            }
            let entries = registrations.map { text in
                let n = AircraftBundle.normalizedRegistration(text)!
                return Entry(input: text, nNumber: n, events: recorded?.events(of: n) ?? [], deregistrations: bundle.deregistrations(of: n).map(\.info))
            }
            let covered = recorded.map { Covered(firstBuild: $0.firstBuild, lastBuild: $0.lastBuild, builds: $0.buildCount) }
            try options.emit(Report(history: covered, entries: entries)) {
                let head = covered.map { "history: \(formatCount($0.builds, "build")), \($0.firstBuild) to \($0.lastBuild)" }
                    ?? "history: none recorded (no \(path); the nightly pipeline writes it with each published build)"
                return ([head] + entries.map(Self.render)).joined(separator: "\n")
            }
        }

        static func render(_ e: Entry) -> String {
            var out = [e.nNumber]
            if e.events.isEmpty { out.append("  no changes seen") }
            let width = HistorySchema.EventKind.allCases.map(\.name.count).max()!
            for event in e.events {
                let change: String
                switch event.kind {
                case .registered: change = "registered to \(event.after.isEmpty ? "(owner withheld)" : event.after)"
                case .deregistered: change = "left MASTER; last owner \(event.before.isEmpty ? "(withheld)" : event.before)"
                default: change = "\(event.before.isEmpty ? "(none)" : event.before) → \(event.after.isEmpty ? "(none)" : event.after)"
                }
                out.append("  \(event.date)  \(event.kind.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(change)")
            }
            for d in e.deregistrations {
                let owner = [d.name, Status.place(d.city, d.state)].filter { !$0.isEmpty }.joined(separator: ", ")
                out.append("  \(d.cancelDate?.description ?? "(no date)")  DEREG  cancelled: \(d.reason); last owner \(owner.isEmpty ? "not given" : owner)")
            }
            return out.joined(separator: "\n")
        }
    }
}
