import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
import Foundation

/// The manufacturer-index stage: the FAA hand-off's reference data (no MASTER needed), the ICAO
/// type designators and the Mode S table in; `aircraft-index.fgb` and its `manifest.json` entry out.
///
/// The crosswalk needs registrations: when the hand-off has `registrations.csv` and a Mode S
/// table is given, each registration whose address has a designator votes for its model's
/// type. Without either the index has no crosswalk (every other section is there).
///
/// ```swift
/// let result = try AircraftIndexEmit.run(handOff: "output/stage/faa", outputDirectory: "output",
///                                        icaoTypes: "../shared/data/aircraft/icao-types.json")
/// ```
public enum AircraftIndexEmit {
    public static let artifactFile = "aircraft-index.fgb"

    public struct Result: Sendable {
        public var manifest: Manifest
        public var entry: Manifest.Artifact
        public var artifactPath: String
        /// Registrations read for the crosswalk (0 without MASTER or without a Mode S table).
        public var registrationsRead: Int
    }

    public static func run(handOff: String, outputDirectory: String, icaoTypes: String? = nil, modes: String? = nil,
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Result {
        let checked = try HandOff(directory: handOff, report: NormalizedFAA.reportFile, producer: NormalizedFAA.producer,
                                  files: [NormalizedFAA.modelsFile, NormalizedFAA.enginesFile], streamed: [NormalizedFAA.registrationsFile])
        let report = checked.report
        let referenceSources = report.sources.filter { !isMaster($0.file) }
        var sources = referenceSources
        let reference = try AircraftArtifactBuilder.ReferenceData(modelsFile: checked.path(NormalizedFAA.modelsFile),
                                                                  enginesFile: checked.path(NormalizedFAA.enginesFile))
        guard reference.modelCount > 0 else {
            let acftref = referenceSources.first { $0.file.uppercased().hasPrefix("ACFTREF") }
            throw LocatedError(.empty, file: acftref?.file ?? checked.path(NormalizedFAA.modelsFile),
                               expected: "aircraft models", found: "\(acftref?.rows.read ?? 0) rows read, \(acftref?.rows.kept ?? 0) kept",
                               message: "no aircraft models to index")
        }
        var types: [ICAOTypeTable.Entry] = []
        if let icaoTypes {
            let table = try ICAOTypeTable(path: icaoTypes)
            types = table.all
            let digest = try FileDigest.sha256(ofFileAt: icaoTypes)
            sources.append(Manifest.Source(file: (icaoTypes as NSString).lastPathComponent, bytes: digest.bytes, sha256: digest.digest,
                                           rows: .init(read: table.count, kept: table.count)))
        }
        var builder = AircraftIndexBuilder(reference: reference, types: types)
        var registrationsRead = 0
        if let modes {
            let table = try ModeSTypeTable(path: modes)
            sources.append(table.source)
            if report.output(named: NormalizedFAA.registrationsFile) != nil {
                registrationsRead = try vote(checked, modes: table, into: &builder)
                sources += report.sources.filter { isMaster($0.file) }
            }
        }
        // Large sections wait for the write in a scratch file, not in memory: this stage runs
        // beside emit-aircraft, and their peaks add up (77 → 72 MB RSS at full size).
        builder.spool = try SectionSpool(directory: outputDirectory)
        let (artifact, counts) = try builder.build()
        let artifactPath = outputDirectory + "/" + artifactFile
        var digest = StreamingDigest()
        let outputs = OutputSet()
        let (file, size, sections) = try artifact.prepare(artifactPath) { digest.update($0) }
        try outputs.add(file)
        var allCounts = counts
        allCounts["crosswalkRegistrationsRead"] = registrationsRead
        let entry = Manifest.Artifact(file: artifactFile, kind: AircraftIndexSchema.kind.description, bytes: size, sha256: digest.finalize(),
                                      sections: sections, sources: sources, counts: allCounts)
        let manifest = try EmitSupport.publish(entry, outputDirectory: outputDirectory, with: outputs, environment: environment)
        return Result(manifest: manifest, entry: entry, artifactPath: artifactPath, registrationsRead: registrationsRead)
    }

    /// Reads `registrations.csv` (its SHA-256 checked against the report as it is read): every
    /// registration whose Mode S address has a designator votes for its model. Returns the
    /// number of registrations read.
    private static func vote(_ handOff: HandOff, modes: ModeSTypeTable, into builder: inout AircraftIndexBuilder) throws -> Int {
        typealias F = NormalizedFAA.RegistrationField
        var read = 0
        let path = handOff.path(NormalizedFAA.registrationsFile)
        let sha256 = try NormalizedFAA.readRegistrationRecords(path) { record in
            read += 1
            record.withUnsafeFields { fields in
                let hex = fields[F.modeSHex.rawValue]
                guard (1...6).contains(hex.count) else { return }
                var address: UInt32 = 0
                for byte in hex {
                    guard let digit = StringTableJSON.hexValue(byte) else { return }
                    address = address << 4 | digit
                }
                if let designator = modes.designator(address: address) {
                    builder.addRegistration(modelCode: fields[F.modelCode.rawValue], designator: designator)
                }
            }
        }
        try handOff.verify(NormalizedFAA.registrationsFile, sha256: sha256)
        return read
    }

    /// `MASTER.txt` and its parts.
    private static func isMaster(_ file: String) -> Bool { file.uppercased().hasPrefix("MASTER") }
}
