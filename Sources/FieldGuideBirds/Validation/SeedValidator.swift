import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// What a seed file is.
public enum SeedKind: String, Sendable, Codable, Hashable {
    case database, watchlists, sharedWatchlists, homeData, taxonomy, unknown
}

/// One seed file as read: its kind, the generation (for a database), its typed content and
/// the findings about it.
public struct SeedFile: Sendable {
    public enum Content: Sendable {
        case database(BirdDatabase, listed: Int)
        case watchlists([Watchlist])
        case homeData(HomeData)
        case taxonomy(Taxonomy)
        /// Not readable as a seed file: a syntax error, or an unknown kind.
        case none
    }

    public var path: String
    public var kind: SeedKind
    public var content: Content
    public var findings: [Finding]
    public var sha256: String
    public var bytes: Int
    /// For a database checked against a taxonomy: bird id → the taxon of its scientific name.
    public var taxonLinks: [String: Taxon] = [:]

    public var generation: SchemaGeneration? {
        if case let .database(database, _) = content { return database.generation }
        return nil
    }

    /// Record counts by kind (`birds`, `watchlists`, `hotspots` …).
    public var counts: [String: Int] {
        switch content {
        case let .database(database, listed):
            ["birds": listed, "shapes": database.shapes.count, "fieldMarks": database.fieldMarks.count, "variants": database.variants.count]
        case let .watchlists(lists):
            ["watchlists": lists.count, "entries": lists.reduce(0) { $0 + $1.entries.count }]
        case let .homeData(home):
            ["hotspots": home.hotspots.count, "hotspotSpecies": home.hotspots.reduce(0) { $0 + $1.species.count },
             "migrationSessions": home.migrationSessions.count,
             "trajectoryPoints": home.migrationSessions.reduce(0) { $0 + $1.points.count }]
        case let .taxonomy(taxonomy):
            ["taxa": taxonomy.taxa.count, "species": taxonomy.taxa.filter { $0.category == "species" }.count]
        case .none: [:]
        }
    }
}

/// A summary of one file in a validation report.
public struct SeedFileSummary: Sendable, Codable, Equatable {
    public var file: String
    public var kind: SeedKind
    public var generation: SchemaGeneration?
    public var sha256: String
    public var bytes: Int
    public var counts: [String: Int]

    /// What each key of `counts` counts, in the singular and the plural.
    private static let nouns: [String: (String, String)] = [
        "birds": ("bird", "birds"), "shapes": ("shape", "shapes"), "fieldMarks": ("field mark", "field marks"),
        "variants": ("variant", "variants"), "watchlists": ("watchlist", "watchlists"), "entries": ("entry", "entries"),
        "hotspots": ("hotspot", "hotspots"), "hotspotSpecies": ("hotspot species entry", "hotspot species entries"),
        "migrationSessions": ("migration session", "migration sessions"), "trajectoryPoints": ("trajectory point", "trajectory points"),
        "taxa": ("taxon", "taxa"), "species": ("species", "species"),
    ]

    /// A count of `counts` in words that agree with it (`1 watchlist`, `4 field marks`): the
    /// report keeps its keys (`fieldMarks`); a key without words is shown as it is.
    public static func countText(_ n: Int, key: String) -> String {
        guard let (singular, plural) = nouns[key] else { return "\(formatCount(n)) \(key)" }
        return formatCount(n, singular, plural: plural)
    }
}

/// Everything one validation run found.
public struct SeedValidationReport: Sendable, Codable {
    public var files: [SeedFileSummary]
    public var findings: [Finding]
    public var errors: Int { findings.filter { $0.severity == .error }.count }
    public var warnings: Int { findings.filter { $0.severity == .warning }.count }

    /// Whether the run passes: no errors, and with `strict` no warnings either.
    public func passes(strict: Bool) -> Bool { errors == 0 && (!strict || warnings == 0) }

    enum CodingKeys: String, CodingKey { case files, findings, errors, warnings }

    public init(files: [SeedFileSummary], findings: [Finding]) {
        self.files = files
        self.findings = findings
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decode([SeedFileSummary].self, forKey: .files)
        findings = try container.decode([Finding].self, forKey: .findings)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .files)
        try container.encode(findings, forKey: .findings)
        try container.encode(errors, forKey: .errors)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// Reads seed files and directories, checks every rule, and reports every problem in one run.
///
/// Directories are searched recursively for `*.json` (seed files) and `*.csv` (taxonomies;
/// other CSVs are skipped). Watchlists and home data are checked against the bird database in
/// their own directory (else the nearest one above, else the only one given). A taxonomy
/// (`taxonomyPath`, else the first taxonomy CSV found) links and checks every database's birds.
///
/// ```swift
/// let report = try SeedValidator().validate(paths: ["input/birds"])
/// for finding in report.findings { print(finding) }   // file:line:col: error: message
/// ```
public struct SeedValidator: Sendable {
    public var taxonomyPath: String?
    public var maxDepth: Int
    /// Whether a directory walk descends into `history/` (archives of older generations, which
    /// fail today's rules by design). Named files are always read.
    public var includeHistory = false

    public init(taxonomyPath: String? = nil, maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.taxonomyPath = taxonomyPath
        self.maxDepth = maxDepth
    }

    /// Validates and returns the files as read, with their findings.
    public func validate(paths: [String]) throws(LocatedError) -> SeedValidationReport {
        let files = try check(paths: paths)
        return Self.report(files)
    }

    static func report(_ files: [SeedFile]) -> SeedValidationReport {
        SeedValidationReport(
            files: files.map { SeedFileSummary(file: $0.path, kind: $0.kind, generation: $0.generation, sha256: $0.sha256, bytes: $0.bytes, counts: $0.counts) },
            findings: files.flatMap(\.findings))
    }

    /// Reads every file and applies every rule; each file's findings are sorted by position.
    public func check(paths: [String]) throws(LocatedError) -> [SeedFile] {
        try checkAndLink(paths: paths).files
    }

    /// `check(paths:)`, also giving the taxonomy the databases were linked with (their
    /// `taxonLinks`): read once, for the ingest to link its other sources with.
    func checkAndLink(paths: [String]) throws(LocatedError) -> (files: [SeedFile], taxonomy: Taxonomy?) {
        let located = try Self.expand(paths, includeHistory: includeHistory)
        var files: [SeedFile] = []
        var sinks: [FindingSink] = []
        var documents: [Int: JSONDocument] = [:]
        for (index, source) in located.enumerated() {
            let data = try Self.readBytes(source.path)
            let digest = FileDigest.sha256(data)
            if source.path.hasSuffix(".csv") {
                let sink = FindingSink(file: source.path, document: nil)
                var content = SeedFile.Content.none
                do {
                    let taxonomy = try Taxonomy.read(fileAt: source.path)
                    for reading in taxonomy.readings {
                        sink.add(.warning, Finding.Rule(reading.kind), at: SourceLocation(line: reading.line, column: 1), reading.message)
                    }
                    content = .taxonomy(taxonomy)
                } catch {
                    if error.kind.isUsageOrIO { throw error }
                    if error.kind == .wrongHeader && !source.explicit { continue }
                    sink.add(.error, error.kind == .wrongHeader ? .schema : .syntax, at: SourceLocation(line: error.line ?? 1, column: 1), error.detail)
                }
                files.append(SeedFile(path: source.path, kind: .taxonomy, content: content, findings: [], sha256: digest, bytes: data.count))
                sinks.append(sink)
                continue
            }
            let document: JSONDocument
            do {
                document = try JSONDocument.parse(data, file: source.path, maxDepth: maxDepth)
            } catch {
                let sink = FindingSink(file: source.path, document: nil)
                sink.add(.error, .syntax, at: SourceLocation(line: error.line ?? 1, column: error.column ?? 1), error.detail)
                files.append(SeedFile(path: source.path, kind: .unknown, content: .none, findings: [], sha256: digest, bytes: data.count))
                sinks.append(sink)
                continue
            }
            // An aircraft reference table found beside the seeds (input/aircraft/icao-types.json):
            // not a seed file, skipped without a word, as a CSV that is not a taxonomy is.
            if !source.explicit && Self.isStringArrayTable(document.root) { continue }
            documents[index] = document
            let sink = FindingSink(file: source.path, document: document)
            ControlCharacterRule.check(document, sink: sink)
            var file = SeedFile(path: source.path, kind: .unknown, content: .none, findings: [], sha256: digest, bytes: data.count)
            let root = document.root
            let name = (source.path as NSString).lastPathComponent.lowercased()
            if BirdDatabaseDecoder.isDatabase(root) {
                file.kind = .database
                if let database = BirdDatabaseDecoder.decode(document, sink: sink) {
                    file.content = .database(database, listed: root["birds"]?.array?.count ?? 0)
                }
            } else if WatchlistDecoder.isWatchlists(root) || (root.array?.isEmpty == true && name.contains("watchlist")) {
                // Content decides; an empty list can only go by its file name.
                let shared = root.array?.isEmpty == true ? name.contains("shared") : WatchlistDecoder.isShared(root)
                file.kind = shared ? .sharedWatchlists : .watchlists
                file.content = .watchlists(WatchlistDecoder.decode(document, sink: sink))
            } else if HomeDataDecoder.isHomeData(root) {
                file.kind = .homeData
                if let home = HomeDataDecoder.decode(document, sink: sink) { file.content = .homeData(home) }
            } else {
                sink.add(.warning, .schema, at: "", offset: root.offset,
                         "not a bird seed file (expected a bird database with \"birds\", watchlists with \"observedBirds\", or home data with \"hotspots\"); skipped")
            }
            files.append(file)
            sinks.append(sink)
        }

        let taxonomy = try loadTaxonomy(files)
        var indexes: [Int: DatabaseIndex] = [:]
        for (index, file) in files.enumerated() {
            guard case let .database(database, listed) = file.content else { continue }
            indexes[index] = DatabaseRules.check(database, listed: listed, file: file.path, sink: sinks[index])
            if let taxonomy { files[index].taxonLinks = TaxonomyLinker(taxonomy: taxonomy).link(database, sink: sinks[index]) }
        }
        for (index, file) in files.enumerated() {
            let database = Self.database(for: file.path, among: files, indexes: indexes)
            switch file.content {
            case let .watchlists(lists):
                if database == nil { Self.noDatabase(sinks[index], file.path) }
                WatchlistRules.check(lists, database: database, sink: sinks[index])
            case let .homeData(home):
                if database == nil { Self.noDatabase(sinks[index], file.path) }
                HomeDataRules.check(home, database: database, sink: sinks[index])
            default: break
            }
        }
        for index in files.indices {
            files[index].findings = sinks[index].findings.enumerated()
                .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        }
        return (files, taxonomy)
    }

    private static func noDatabase(_ sink: FindingSink, _ path: String) {
        sink.warning(.reference, at: "", "no bird database among the inputs: bird references in \((path as NSString).lastPathComponent) were not checked")
    }

    private func loadTaxonomy(_ files: [SeedFile]) throws(LocatedError) -> Taxonomy? {
        if let taxonomyPath { return try Self.readTaxonomy(option: taxonomyPath) }
        for file in files { if case let .taxonomy(taxonomy) = file.content { return taxonomy } }
        return nil
    }

    /// The taxonomy named by the `--taxonomy` option: a file that is not one is a usage error
    /// (whatever is wrong inside it), one that cannot be read an I/O error.
    static func readTaxonomy(option path: String) throws(LocatedError) -> Taxonomy {
        guard FileManager.default.fileExists(atPath: path) else { throw LocatedError(.missingFile, file: path, message: "no such file") }
        do { return try Taxonomy.read(fileAt: path) } catch { throw error.asOptionError() }
    }

    /// The database in `path`'s directory (preferring `bird_database.json`), else the nearest
    /// one in a directory above, else the only database given.
    static func database(for path: String, among files: [SeedFile], indexes: [Int: DatabaseIndex]) -> DatabaseIndex? {
        var directory = FilePath.directory(of: path)
        while true {
            let here = indexes.keys.sorted().filter { FilePath.directory(of: files[$0].path) == directory }
            if let preferred = here.first(where: { (files[$0].path as NSString).lastPathComponent == "bird_database.json" }) ?? here.first {
                return indexes[preferred]
            }
            if directory.isEmpty || directory == "/" || directory == "." { break }
            directory = FilePath.directory(of: directory)
        }
        return indexes.count == 1 ? indexes.values.first : nil
    }

    struct Located: Equatable {
        var path: String
        /// Named on the command line (not found by searching a directory).
        var explicit: Bool
    }

    /// An object whose values are all arrays of strings (`{"B738": ["BOEING 737-800", "L2J", "M"]}`):
    /// the ICAO type and Mode S tables' shape, which no seed file has.
    static func isStringArrayTable(_ root: JSONValue) -> Bool {
        guard let members = root.members, !members.isEmpty else { return false }
        return members.allSatisfy { $0.value.array?.allSatisfy { $0.string != nil } ?? false }
    }

    /// Files named, and `*.json`/`*.csv` files under directories named (sorted, hidden ones skipped).
    static func expand(_ paths: [String], includeHistory: Bool = false) throws(LocatedError) -> [Located] {
        var out: [Located] = []
        var seen = Set<String>()
        func append(_ path: String, explicit: Bool) {
            // The same file named twice (a glob and a directory) is read once.
            if seen.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted { out.append(Located(path: path, explicit: explicit)) }
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LocatedError(.missingFile, file: path, message: "no such file or directory")
            }
            guard isDirectory.boolValue else {
                append(path, explicit: true)
                continue
            }
            // Links followed, the directory's own included; hidden names skipped.
            var found: [String] = []
            for relative in try DirectoryWalk.files(under: path) {
                if !includeHistory, relative.split(separator: "/").dropLast().contains(where: { $0.lowercased() == "history" }) { continue }
                let lower = relative.lowercased()
                guard lower.hasSuffix(".json") || lower.hasSuffix(".csv") else { continue }
                found.append(relative)
            }
            let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            for relative in found.sorted() { append(base + "/" + relative, explicit: false) }
        }
        return out
    }

    /// A seed file's bytes, within `BoundedRead.seedFileBytes` (a larger file is refused before it is read).
    static func readBytes(_ path: String) throws(LocatedError) -> [UInt8] {
        try BoundedRead.bytes(atPath: path, limit: BoundedRead.seedFileBytes, what: "a bird seed file")
    }
}
