import ArgumentParser
import FieldGuide
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI

extension FieldGuideCommand {
    struct Registrations: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Registrations by owner, model, state and serial number (the filters combine).",
            discussion: """
            --owner takes words that each start a word of the owner's name, in any order, case \
            and punctuation ignored ("delta air" finds DELTA AIR LINES INC). --model takes an \
            ACFTREF code, else the start of a model name (spaces and punctuation ignored: "sr22" \
            finds SR-22); the aircraft artifact holds no ICAO type designators. --state takes a \
            two-letter code, --serial a whole serial number. Registrations come in N-number \
            order with the total count; --limit (1…10000) and --offset page through them. A \
            withheld owner (a redacted bundle) shows as (withheld) and is never found by --owner.
            """)
        @Option(help: "Words starting the owner's name words (\"delta air\").") var owner: String?
        @Option(help: "An ACFTREF code, or the start of a model name.") var model: String?
        @Option(help: "A two-letter state code (GA).") var state: String?
        @Option(help: "A whole serial number.") var serial: String?
        @Option(help: "At most this many registrations (1…10000).") var limit: Int = 20
        @Option(help: "Skip this many matches first.") var offset: Int = 0
        @OptionGroup var options: AircraftOptions

        struct Page: Encodable {
            let query: RegistrationQuery
            let total: Int
            let offset: Int
            let limit: Int
            /// ACFTREF codes the model filter matched.
            let models: [String]
            let registrations: [RegistrationInfo]
        }

        func validate() throws {
            guard owner != nil || model != nil || state != nil || serial != nil else {
                throw ValidationError("expected at least one of --owner, --model, --state, --serial; found none")
            }
        }

        func run() throws {
            let bundle = try options.open()
            let query = RegistrationQuery(owner: owner, model: model, state: state, serialNumber: serial)
            let found: RegistrationMatches
            do { found = try bundle.registrations(matching: query, offset: offset, limit: limit) } catch { throw error.asOption() }
            let page = Page(query: query, total: found.total, offset: offset, limit: limit, models: found.models.map(\.code),
                            registrations: found.records.map(\.info))
            // Nothing found: say whether the state alone finds nothing (`ZZ`, or a state with no aircraft).
            let emptyState = found.total == 0 && state != nil
                && (try? bundle.registrations(matching: RegistrationQuery(state: state), limit: 1).total) == 0
            try options.emit(page) { Self.text(found, query: query, emptyState: emptyState) }
        }

        /// A count line, then one line per registration: N-number, model, owner, city and state.
        static func text(_ found: RegistrationMatches, query: RegistrationQuery, emptyState: Bool = false) -> String {
            let state = query.state.map { "state \($0.uppercased())" + (emptyState ? " (no registration in this bundle has it)" : "") }
            var filters = [query.owner.map { "owner \"\($0)\"" }, query.model.map { "model \"\($0)\"" },
                           state, query.serialNumber.map { "serial \($0)" }].compactMap { $0 }
            if let model = query.model {
                if !found.models.isEmpty {
                    filters.append("\(formatCount(found.models.count)) ACFTREF model\(found.models.count == 1 ? "" : "s")")
                } else if found.total > 0 {
                    filters.append("a code registrations name that ACFTREF lacks")
                } else {
                    filters.append("no ACFTREF code or model name matches \"\(model)\" (this bundle holds no ICAO type designators)")
                }
            }
            var head = "\(formatCount(found.total)) registration\(found.total == 1 ? "" : "s"): " + filters.joined(separator: ", ")
            let last = found.offset + found.records.count
            if found.total > 0 && (found.offset > 0 || last < found.total) {
                head += found.records.isEmpty ? "; none from --offset \(found.offset)"
                    : "; " + (last == found.offset + 1 ? "\(last)" : "\(found.offset + 1)–\(last)") + " shown"
                        + (last < found.total ? " (--offset \(last) for more)" : "")
            }
            let rows = found.records.map { r -> [String] in
                let model = r.model.map { "\($0.manufacturer) \($0.model)" } ?? "\(r.modelCode) (not in ACFTREF)"
                return [r.nNumber, model, r.ownerWithheld ? "(withheld)" : r.name, [r.city, r.state].filter { !$0.isEmpty }.joined(separator: " ")]
            }
            return ([head] + columns(rows)).joined(separator: "\n")
        }
    }

    struct Enrich: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The aircraft app's enrichment fields for a registration or Mode S address, or for every line of a file.",
            discussion: """
            IDENTIFIER is an N-number (N250JT, 250JT) or a Mode S address (six hex digits). \
            --from FILE enriches many at once: a file of identifiers, one per line (blank lines \
            and lines starting with # skipped), or a CSV file whose header has a registration \
            column (also n_number, tail_number) and/or a mode_s_hex column (also mode_s, icao24, \
            hex), the registration used when both are filled. One row per input, in input \
            order: CSV (the default) or JSON lines (--format json), with a status of found, \
            not_found or invalid. The file is read as it streams, up to \(EnrichBatch.maxFileBytes >> 20) MiB.
            """)
        @Argument(help: "An N-number or Mode S address.") var identifier: String?
        @Option(help: "A file of N-numbers and/or Mode S addresses (or a CSV file with such a column).") var from: String?
        @OptionGroup var options: AircraftOptions

        func validate() throws {
            try requirePath(from, option: "--from")
            switch (identifier, from) {
            case (nil, nil): throw ValidationError("expected an N-number or Mode S address, or --from FILE; found neither")
            case (_?, _?): throw ValidationError("expected an N-number or Mode S address, or --from FILE; found both")
            case let (text?, nil) where AircraftIdentifierKind(text) == nil:
                throw ValidationError("<identifier>: expected an N-number (N250JT) or a Mode S address (A1B2C3), found \(shown(text))")
            default: break
            }
        }

        func run() throws {
            let bundle = try options.open()
            if let from { return try EnrichBatch.run(file: from, bundle: bundle, format: options.format) }
            guard let found = bundle.aircraft(identifier: identifier!) else { throw notFound("registration or Mode S address \(shown(identifier!))") }
            let e = bundle.enrichment(for: found.record)
            let withheld: String? = e.ownerWithheld ? "withheld" : nil
            try options.emit(e) {
                lines([("Registration", e.registration), ("Serial number", e.serialNumber), ("Manufacturer", e.manufacturer),
                       ("Model", e.model), ("Engine type", e.engineType), ("Weight class", e.weightClass),
                       ("Classification", e.airworthinessClassification), ("Aircraft type", e.aircraftType),
                       ("Year", e.yearManufactured.map(String.init)), ("Engines", e.engineCount.map(String.init)),
                       ("Seats", e.seatCount.map(String.init)), ("Country", e.country), ("Owner type", e.ownerType),
                       ("Airworthiness date", e.airworthinessDate?.description), ("Certificate issued", e.certificateIssueDate?.description),
                       ("Certificate expires", e.certificateExpirationDate?.description), ("Registered owner", withheld ?? e.registeredOwner),
                       ("Address", withheld ?? e.addressLine1), ("Address 2", e.addressLine2), ("City", e.city), ("State", e.state), ("Zip", e.zip),
                       ("Mode S", e.modeSHex)])
            }
        }
    }
}

/// Rows of cells as lines, every column but the last padded to its widest cell.
func columns(_ rows: [[String]]) -> [String] {
    guard let width = rows.map(\.count).max() else { return [] }
    let widths = (0..<width).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
}

extension Error {
    /// A query library usage error named by the command-line option it came from
    /// (`limit` → `--limit`); other errors unchanged.
    func asOption() -> Error {
        guard var located = self as? LocatedError, located.kind == .usage, let field = located.field else { return self }
        located.field = field == "query" ? nil : "--" + field
        return located
    }
}
