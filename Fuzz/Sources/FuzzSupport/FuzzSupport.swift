import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideExports
import Foundation

/// What every fuzz target shares: a scratch directory of its own, the bytes written as a file
/// under a given name, and the queries run on whatever artifact opened.
public enum Fuzz {
    /// A directory of this process's own (`FUZZ_SCRATCH` or the temporary directory).
    public static let scratch: String = {
        let base = ProcessInfo.processInfo.environment["FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
        let path = base + "/fieldguide-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The project root (`FUZZ_ROOT`, set by `make fuzz`), for fixtures beside the input.
    public static let root = ProcessInfo.processInfo.environment["FUZZ_ROOT"] ?? FileManager.default.currentDirectoryPath

    /// Writes the input as `scratch/name` and returns the path.
    public static func write(_ start: UnsafeRawPointer, _ count: Int, as name: String) -> String {
        let path = scratch + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes: start, count: count))
        return path
    }

    /// Reads one export file through its reader (format sniffed as the stage does).
    public static func readExport(_ path: String) {
        let sink = RecordSink(observe: { _ = $0.subject }, issue: { _ = $0.reason })
        _ = try? ExportFileReader.read(path: path, sink: sink)
    }

    /// Every aircraft query, on whatever the bundle holds.
    public static func exercise(_ bundle: AircraftBundle) {
        for n in ["N90", "N250JT", "1", "N99999"] {
            if let record = bundle.aircraft(registration: n) { _ = (record.info, bundle.enrichment(for: record)) }
        }
        _ = bundle.aircraft(modeSHex: "A1B2C3")?.info
        for manufacturer in bundle.manufacturers(prefix: "", limit: 10) { _ = manufacturer.models.map(\.info) }
        _ = bundle.model(code: "2100200")?.info
        _ = bundle.engine(code: "30302")?.code
        for table in AircraftSchema.CodeTable.allCases { _ = bundle.codeTable(table) }
        let queries: [RegistrationQuery] = [.init(owner: "c"), .init(owner: "northwind charter"), .init(model: "bh"),
                                            .init(model: "9999999"), .init(state: "ME"), .init(owner: "a", serialNumber: "BH9-0005")]
        for query in queries {
            for record in (try? bundle.registrations(matching: query, limit: 20))?.records ?? [] { _ = (record.info, record.ownerWithheld) }
        }
        _ = bundle.aircraft(identifier: "ADF7C7")?.record.info
        // DEREG's and RESERVED's sections (input/faa's numbers), and the app-facing lines.
        for n in ["N1701", "N321RV", "N4477", "N2FG", "N44GX", "N0A"] {
            let status = bundle.status(of: n)
            _ = (status.kind, status.reservation?.info, status.deregistrations.map(\.info), status.registration?.modeSHex)
            _ = (bundle.enrichment(registration: n)?.serialNumber, bundle.sightingLines(registration: n)?.title)
        }
    }

    /// Every manufacturer-index query, on whatever the index holds.
    public static func exercise(_ index: AircraftIndex) {
        for text in ["Skylark 2", "BH-900 jet", "Aeromarin", "blu", "800", "Boeng 737-800"] {
            for result in (try? index.search(text, limit: 5)) ?? [] { _ = result.title }
        }
        for row in [0, 1, index.modelCount - 1] {
            if let model = index.model(at: row) { _ = (model.info, model.designator?.type.info, model.manufacturerRecord.models.count) }
        }
        for row in [0, index.typeCount - 1] { _ = index.type(at: row).map { ($0.info, $0.models.count) } }
        _ = index.manufacturers(prefix: "", limit: 5).map(\.name)
        _ = index.engine(code: "30302")?.info
        _ = index.match(designator: "BH90", manufacturer: "Blueheron", model: "BH-900 Jet")
    }

    /// Every history read, on whatever the history holds: input/faa's N-numbers (the seed
    /// has owner and address events for the individuals among them) and every event.
    public static func exercise(_ history: RegistrationHistory) {
        _ = (history.eventCount, history.firstBuild, history.lastBuild, history.buildCount)
        for n in ["N100A", "N101BZ", "N2", "N250JT", "N1"] {
            for event in history.events(of: n) { _ = (event.nNumber, event.build, event.kind, event.before, event.after) }
        }
        for event in history.allEvents.prefix(1_000) { _ = (event.nNumber, event.after) }
    }

    /// Every birds query, on whatever the bundle holds.
    public static func exercise(_ birds: BirdsBundle) {
        for record in birds.allSpecies.prefix(20) { _ = record.info }
        for region in birds.regionNames.prefix(5) {
            _ = birds.occurrence(inRegion: region, month: 5)
            _ = birds.occurrence(inRegion: region, week: 20)
        }
        for hit in birds.species(named: "Mallard") { _ = (hit.commonName, hit.taxon.names, hit.taxon.bird?.info) }
        _ = birds.seasons(of: "Mallard")
        _ = birds.observedSpecies().map(\.commonName)
        _ = try? birds.species(near: (52.2, 0.12), radiusKm: 100, week: 10).map(\.bird.commonName)
        _ = birds.identify(BirdIdentificationQuery(shape: "Anatidae", size: 3, month: 5)).map(\.bird.commonName)
    }
}

/// Structure-aware mutation of an artifact: one word inside one section changed, then the
/// checksums resealed (`ArtifactBuilder.reseal`), so the result passes every check.
public enum ArtifactMutator {
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
        var random = SplitMix(state: UInt64(seed))
        let bytes = UnsafeMutableRawBufferPointer(start: data, count: size)
        let raw = UnsafeRawBufferPointer(bytes)
        guard size >= ArtifactFormat.headerSize, Array(raw[0..<8]) == ArtifactFormat.magic else { return size }
        let count = Int(raw.le(UInt32.self, 16))
        let tableEnd = ArtifactFormat.headerSize + count * ArtifactFormat.sectionEntrySize
        guard count > 0, count < 4096, tableEnd <= size else { return size }
        let index = Int.random(in: 0..<count, using: &random)
        let entry = ArtifactFormat.headerSize + index * ArtifactFormat.sectionEntrySize
        // The entry may hold any bytes (libFuzzer's own mutations run too): a word past `Int.max`
        // is no section, not a trap in the harness.
        guard let offset = Int(exactly: raw.le(UInt64.self, entry + 8)), let length = Int(exactly: raw.le(UInt64.self, entry + 16)),
              offset >= tableEnd, length >= 4, offset <= size - length else { return size }
        let at = offset + Int.random(in: 0..<(length / 4), using: &random) * 4
        let values: [UInt32] = [0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x00FF_FFFF, UInt32.random(in: 0...UInt32.max, using: &random),
                                raw.le(UInt32.self, at) &+ 1]
        bytes.storeBytes(of: values.randomElement(using: &random)!.littleEndian, toByteOffset: at, as: UInt32.self)
        ArtifactBuilder.reseal(bytes, section: index)
        _ = maxSize
        return size
    }

    /// A small seeded generator, so a mutation replays from libFuzzer's seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension Fuzz {
    /// One artifact input: written as a file, opened header-only and fully, queried whenever
    /// it opens (`open` is the bundle's initializer, `exercise` its queries).
    public static func artifact<Bundle>(_ start: UnsafeRawPointer, _ count: Int, as name: String,
                                        open: (String, ArtifactFile.Verification) throws -> Bundle, exercise: (Bundle) -> Void) {
        let path = write(start, count, as: name)
        for verification in [ArtifactFile.Verification.headerOnly, .full] {
            if let bundle = try? open(path, verification) { exercise(bundle) }
        }
    }
}
