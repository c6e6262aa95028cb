import FieldGuideArtifactWriter
import FieldGuidePipeline
import ArgumentParser
import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI

struct FieldGuideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldguide",
        abstract: "Query FieldGuide artifacts.",
        subcommands: [Aircraft.self, ModeS.self, Model.self, Manufacturers.self, Engine.self, Enrich.self, Registrations.self,
                      Sighting.self, Codes.self, Status.self, History.self, Search.self, TypeDesignatorCommand.self, Match.self, Inspect.self, HandOffCommand.self, Identify.self, Species.self, Frequency.self, Watchlist.self, Observed.self, Diff.self])
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

/// An artifact the query subcommands open: its default path and what `--help` calls it.
protocol QueryBundle {
    static var defaultPath: String { get }
    static var artifactName: String { get }
    init(path: String, verification: ArtifactFile.Verification) throws(FieldGuideError)
}

extension AircraftBundle: QueryBundle {
    static let defaultPath = "output/aircraft.fgb"
    static let artifactName = "aircraft"
}

extension BirdsBundle: QueryBundle {
    static let defaultPath = "output/birds.fgb"
    static let artifactName = "birds"
}

/// `path`, or the artifact `name` inside it when `path` is a directory: a published build's
/// folder (`output/current`) holds every artifact, so `--bundle output/current` reads its
/// `aircraft.fgb` (or `birds.fgb`, `aircraft-index.fgb`: whichever the subcommand reads).
///
/// ```swift
/// artifactPath("output/current", named: "aircraft.fgb")   // "output/current/aircraft.fgb"
/// artifactPath("output/public/aircraft.fgb", named: "aircraft.fgb")   // unchanged
/// ```
func artifactPath(_ path: String, named name: String) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return path }
    return (path as NSString).appendingPathComponent(name)
}

/// `--bundle` and `--format`, shared by every query subcommand of one artifact kind.
struct BundleOptions<Bundle: QueryBundle>: ParsableArguments {
    @Option(help: ArgumentHelp("The \(Bundle.artifactName) artifact to read, or a folder holding it as \(Bundle.artifactName).fgb."))
    var bundle: String = Bundle.defaultPath

    /// The artifact file `--bundle` names (see `artifactPath`).
    var path: String { artifactPath(bundle, named: "\(Bundle.artifactName).fgb") }

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws { try requirePath(bundle, option: "--bundle") }

    func open() throws(ArtifactError) -> Bundle {
        do { return try Bundle(path: path, verification: .full) } catch { throw error.underlying }
    }

    /// The bundle's answer to `query`; nil is a rejection naming `what` (`no engine 17020 in the bundle`).
    func find<T>(_ what: String, _ query: (Bundle) -> T?) throws -> T {
        guard let found = query(try open()) else { throw notFound(what) }
        return found
    }

    /// Prints `value` as JSON, or `text()` as plain lines, its control characters escaped but line
/// feeds and tabs: a value from the data (an FAA owner name holding `ESC[2J`) cannot clear or
/// recolour the terminal (`PETERSEN\u{1B}[2JMA`). JSON escapes them anyway.
    func emit<T: Encodable>(_ value: T, text: () -> String) throws { try printOutput(value, format: format, text: text) }

    /// Finds one thing and prints it: `find` then `emit`, for the lookup commands.
    func show<T: Encodable>(_ what: String, _ query: (Bundle) -> T?, text: (T) -> String) throws {
        let found = try find(what, query)
        try emit(found) { text(found) }
    }
}

typealias AircraftOptions = BundleOptions<AircraftBundle>
typealias BirdsBundleOptions = BundleOptions<BirdsBundle>

/// Prints `value` as JSON, or `text()` as plain lines, its control characters escaped but line
/// feeds and tabs: a value from the data (an FAA owner name holding `ESC[2J`) cannot clear or
/// recolour the terminal (`PETERSEN\u{1B}[2JMA`). JSON escapes them anyway.
func printOutput<T: Encodable>(_ value: T, format: OutputFormat, text: () -> String) throws {
    switch format {
    case .json:
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    case .text:
        print(LocatedError.visible(text(), keepingLines: true))
    }
}

/// An argument with something in it: a blank one is refused as what it is, a usage error,
/// before the bundle is asked (`no model  in the bundle`, `unknown region ; did you mean …`).
func requireText(_ value: String?, _ name: String, _ expected: String) throws {
    guard let value, !value.contains(where: { !$0.isWhitespace }) else { return }
    throw ValidationError("\(name): expected \(expected), found \"\(shown(value))\"")
}

/// A `--limit` of at least one: 0 answered as if nothing matched (`none: no manufacturer starts with a`).
func requireLimit(_ limit: Int) throws {
    guard limit >= 1 else { throw ValidationError("--limit: expected 1 or more, found \(limit)") }
}

/// An argument as a message echoes it: as written, up to 80 characters (a pasted file does not
/// come back whole).
func shown(_ value: String) -> String { LocatedError.shortened(value) }

func notFound(_ what: String) -> StageFailure { StageFailure(.dataRejected, "no \(what) in the bundle") }

func lines(_ pairs: [(String, String?)]) -> String {
    let width = pairs.map(\.0.count).max() ?? 0
    return pairs.compactMap { key, value in
        guard let value, !value.isEmpty else { return nil }
        return key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
    }.joined(separator: "\n")
}

func describe(_ code: CodeValue?) -> String? {
    code.map { value in value.name.map { "\($0) (\(value.code))" } ?? "\(value.code) (unknown code)" }
}

func describe(_ r: RegistrationInfo) -> String {
    lines([
        ("N-number", r.nNumber), ("Serial number", r.serialNumber),
        ("Model", r.model.map { "\($0.manufacturer) \($0.model) (\($0.code))" } ?? "\(r.modelCode) (not in ACFTREF)"),
        ("Engine", r.engine.map { "\($0.manufacturer) \($0.model) (\($0.code))" } ?? (r.engineCode.isEmpty ? nil : "\(r.engineCode) (not in ENGINE)")),
        ("Year", r.yearManufactured.map(String.init)), ("Aircraft type", describe(r.aircraftType)),
        ("Engine type", describe(r.engineType)), ("Airworthiness", describe(r.airworthinessClass)),
        ("Operations", r.approvedOperations.joined(separator: ", ")), ("Certification", r.certification),
        ("Status", describe(r.status)),
        ("Mode S", r.modeSHex ?? USModeS.address(nNumber: r.nNumber).map { "\($0) (computed from the N-number)" }),
        ("Registrant", describe(r.registrantType)),
        ("Owner", r.ownerWithheld ? "withheld (\(r.registrantType?.name ?? "individual") registrant; this bundle leaves out their names and street)" : r.name),
        ("Other names", r.otherNames.joined(separator: "; ")),
        ("Address", r.ownerWithheld ? "withheld" : [r.street, r.street2].filter { !$0.isEmpty }.joined(separator: ", ")),
        ("City", [r.city, r.state, r.zip].filter { !$0.isEmpty }.joined(separator: " ")), ("Country", r.country),
        ("Region", describe(r.region)), ("Certificate issued", r.certificateIssueDate?.description),
        ("Airworthiness date", r.airworthinessDate?.description), ("Expires", r.expirationDate?.description),
        ("Last action", r.lastActionDate?.description),
        ("Kit", [r.kitManufacturer, r.kitModel].filter { !$0.isEmpty }.joined(separator: " ")),
    ])
}

func describe(_ m: ModelInfo) -> String {
    lines([
        ("Code", m.code), ("Manufacturer", m.manufacturer), ("Model", m.model), ("Aircraft type", describe(m.aircraftType)),
        ("Engine type", describe(m.engineType)), ("Category", describe(m.category)),
        ("Builder certification", describe(m.builderCertification)), ("Engines", m.engineCount.map(String.init)),
        ("Seats", m.seatCount.map(String.init)), ("Weight class", describe(m.weightClass)),
        ("Cruise speed", m.cruiseSpeedMPH.map { "\($0) mph" }), ("TC data sheet", m.typeCertificateDataSheet),
        ("TC holder", m.typeCertificateHolder),
    ])
}

extension FieldGuideCommand {
    struct Aircraft: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Look up a registration by N-number (N90, n90 or 90).")
        @Argument var registration: String
        @OptionGroup var options: AircraftOptions
        func validate() throws { try Self.requireRegistration(registration) }
        /// A US N-number as the lookup reads it (`N90`, `n90`, `90`), else a usage error:
        /// `ZZZ` or `N0` names no aircraft, and saying so beats "no registration in the bundle".
        static func requireRegistration(_ registration: String) throws {
            guard let nNumber = AircraftBundle.normalizedRegistration(registration), USModeS.isValid(nNumber: nNumber) else {
                throw ValidationError("<registration>: expected a US N-number (N90, n90 or 90: \(AircraftBundle.nNumberForm)), found \(shown(registration))")
            }
        }
        func run() throws {
            try options.show("registration \(registration)", { $0.aircraft(registration: registration)?.info }, text: describe)
        }
    }

    /// A US address not in MASTER: the N-number it is assigned to.
    struct ComputedRegistration: Encodable { let modeSHex: String; let nNumber: String; let computed: Bool; let inRegistry: Bool }

    struct ModeS: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "modes", abstract: "Look up a registration by Mode S hex address (AC6CD2).")
        @Argument var address: String
        @OptionGroup var options: AircraftOptions
        func validate() throws {
            guard address.count == 6, UInt32(address, radix: 16) != nil else {
                throw ValidationError("<address>: expected six hex digits (AC6CD2), found \(shown(address))")
            }
        }
        func run() throws {
            let bundle = try options.open()
            if let record = bundle.aircraft(modeSHex: address) {
                let info = record.info
                return try options.emit(info) { describe(info) }
            }
            // Not in MASTER: a US address still names its N-number, by the FAA's assignment order.
            guard let nNumber = USModeS.nNumber(address: address) else { throw notFound("Mode S address \(address) (not a US address)") }
            let computed = ComputedRegistration(modeSHex: address.uppercased(), nNumber: nNumber, computed: true, inRegistry: false)
            try options.emit(computed) {
                lines([("Mode S", computed.modeSHex), ("N-number", "\(nNumber) (computed from the address; not in the registry)")])
            }
        }
    }

    struct Model: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Look up an aircraft model by ACFTREF code (0020901).")
        @Argument var code: String
        @OptionGroup var options: AircraftOptions
        func validate() throws { try requireText(code, "<code>", "an ACFTREF code (0020901)") }
        func run() throws { try options.show("model \(shown(code))", { $0.model(code: code)?.info }, text: describe) }
    }

    struct Manufacturers: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Manufacturers whose name starts with PREFIX, with their models.")
        @Argument var prefix: String
        @Option(help: "At most this many manufacturers.") var limit: Int = 50
        @OptionGroup var options: AircraftOptions
        struct Entry: Encodable { let name: String; let models: [ModelInfo] }
        func validate() throws { try requireLimit(limit) }
        func run() throws {
            let bundle = try options.open()
            let found = bundle.manufacturers(prefix: prefix, limit: limit)
            let entries = found.map { Entry(name: $0.name, models: $0.models.map(\.info)) }
            try options.emit(entries) {
                entries.isEmpty ? "none: no manufacturer starts with \(shown(prefix))" : entries.map { e in
                    "\(e.name) (\(formatCount(e.models.count, "model")))\n" + e.models.map { "  \($0.code)  \($0.model)" }.joined(separator: "\n")
                }.joined(separator: "\n")
            }
        }
    }

    struct Engine: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Look up an engine by ENGINE code (17020).")
        @Argument var code: String
        @OptionGroup var options: AircraftOptions
        func validate() throws { try requireText(code, "<code>", "an ENGINE code (17020)") }
        func run() throws {
            try options.show("engine \(shown(code))", { $0.engine(code: code)?.info }) { e in
                lines([("Code", e.code), ("Manufacturer", e.manufacturer), ("Model", e.model), ("Engine type", describe(e.engineType)),
                       ("Horsepower", e.horsepower.map(String.init)), ("Thrust", e.thrustPounds.map { "\($0) lbs" })])
            }
        }
    }

    struct Sighting: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The aircraft app's Recent Sightings lines for a registration.")
        @Argument var registration: String
        @Option(help: "Airline code shown before the manufacturer (UAL).") var airline: String?
        @OptionGroup var options: AircraftOptions
        func validate() throws { try Aircraft.requireRegistration(registration) }
        func run() throws {
            try options.show("registration \(registration)", { $0.sightingLines(registration: registration, airlineCode: airline) }) {
                [$0.title, $0.subtitle].compactMap { $0 }.joined(separator: "\n")
            }
        }
    }

    struct Codes: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a code table (\(AircraftSchema.CodeTable.allCases.map(\.rawValue).joined(separator: ", "))).")
        @Argument var table: String
        @OptionGroup var options: AircraftOptions
        func validate() throws {
            guard AircraftSchema.CodeTable(rawValue: table) == nil else { return }
            throw ValidationError("<table>: unknown code table \(table); expected one of \(AircraftSchema.CodeTable.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func run() throws {
            let which = AircraftSchema.CodeTable(rawValue: table)!
            let values = try options.open().codeTable(which)
            try options.emit(values) { values.map { "\($0.code)\t\($0.name ?? "")" }.joined(separator: "\n") }
        }
    }

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an artifact's header, section table and manifest entry.")
        @Argument(help: "The artifact (default: --bundle).") var artifact: String?
        @OptionGroup var options: AircraftOptions
        func validate() throws { try requirePath(artifact, option: "<artifact>") }
        struct Report: Encodable {
            let path: String; let kind: String; let format: String; let bytes: Int
            let sections: [SectionInfo]; let manifest: Manifest.Artifact?
            /// The registry's as-of date (an aircraft artifact's `ASOF`).
            let asOf: String?
        }
        func run() throws {
            let path = artifact ?? options.path
            let file = try ArtifactFile(path: path, verification: .full)
            let manifestPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("manifest.json").path
            let manifest = FileManager.default.contents(atPath: manifestPath).flatMap { try? Manifest.decode(from: $0) }
            let name = URL(fileURLWithPath: path).lastPathComponent
            var asOf: FieldDate?
            if file.kind == AircraftSchema.kind {
                do { asOf = try AircraftBundle(path: path, verification: .headerOnly).asOf } catch { throw error.underlying }
            }
            let report = Report(path: path, kind: file.kind.description, format: "\(file.majorVersion).\(file.minorVersion)",
                                bytes: file.bytes.count, sections: file.sections, manifest: manifest?.artifact(named: name),
                                asOf: asOf?.description)
            try options.emit(report) {
                var out = ["\(path): \(report.kind) artifact, format \(report.format), \(formatCount(report.bytes)) bytes, checksums ok"]
                if let asOf { out.append("as of \(asOf) (the latest MASTER last-action date)") }
                out.append("section  offset      bytes        rows         crc32")
                for s in file.sections {
                    out.append("\(s.tag)     \(String(s.offset).padding(toLength: 11, withPad: " ", startingAt: 0)) \(String(s.length).padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(s.rows).padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(s.crc32, radix: 16))")
                }
                if let entry = report.manifest {
                    out.append("manifest: sha256 \(entry.sha256)")
                    for source in entry.sources {
                        out.append("  source \(source.file): \(formatCount(source.bytes)) bytes, sha256 \(source.sha256.prefix(16))…, rows read \(source.rows.read), kept \(source.rows.kept), rejected \(source.rows.rejected), warnings \(source.rows.warnings)")
                    }
                    for (key, value) in entry.counts.sorted(by: { $0.key < $1.key }) { out.append("  \(key): \(formatCount(value))") }
                }
                return out.joined(separator: "\n")
            }
        }
    }
}

FieldGuideCommand.runStage(name: "fieldguide")

extension FieldGuideCommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What changed between two builds: added, removed, changed.",
            discussion: """
                OLD and NEW are two artifacts of one kind (aircraft, manufacturer index or birds), or two build \
                directories (output/previous output/current): then every artifact both hold is \
                compared, giving the report the nightly pipeline publishes as changes.md.
                """)
        @Argument(help: "The older artifact or build directory.") var old: String
        @Argument(help: "The newer artifact or build directory.") var new: String
        @Option(help: "Output format: text (Markdown) or json.") var format: OutputFormat = .text
        @Option(help: "At most this many keys per list in text output.") var limit: Int = 50
        func validate() throws {
            guard limit >= 0 else { throw ValidationError("--limit: expected 0 or more, found \(limit)") }
            try requirePath(old, option: "<old>")
            try requirePath(new, option: "<new>")
        }

        func run() throws {
            var pairs: [(String, String)] = [(old, new)]
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: old, isDirectory: &isDirectory), isDirectory.boolValue {
                pairs = ["aircraft-index.fgb", "aircraft.fgb", "birds.fgb"]   // the manifest's order, as the nightly reports
                    .filter { FileManager.default.fileExists(atPath: old + "/" + $0) && FileManager.default.fileExists(atPath: new + "/" + $0) }
                    .map { (old + "/" + $0, new + "/" + $0) }
                guard !pairs.isEmpty else { throw StageFailure(.usageOrIO, "\(old) and \(new) hold no artifact in common") }
            }
            var reports: [ChangeReport] = []
            for (a, b) in pairs {
                do { reports.append(try ChangeReport.between(old: a, new: b)) } catch { throw error.underlying }
            }
            let report = ChangeReport.combined(reports)
            try printOutput(report, format: format) { report.markdown(listLimit: limit) }
        }
    }
}

