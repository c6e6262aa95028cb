import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideWorkers
import Foundation

/// The index/emit stage: normalized FAA hand-off in, `aircraft.fgb` + `manifest.json` out.
///
/// Refuses a hand-off whose report is missing or failed, or whose files do not match the
/// hashes in the report (`HandOff`, as `emit-birds` does). Writes the artifact, then the manifest, each atomically; on any error
/// the previously published files stay as they were.
///
/// Three threads read the hand-off: one for each half of `registrations.csv` and one for the
/// reference files, each into a part of the builder with a string pool of its own. The
/// artifact is the same, byte for byte, as when it is read in one pass; so are the errors.
///
/// ```swift
/// let result = try AircraftEmit.run(handOff: "output/stage/faa", outputDirectory: "output")
/// let public = try AircraftEmit.run(handOff: "output/stage/faa", outputDirectory: "app", redaction: .individuals)
/// ```
///
/// `redaction` withholds the owner name, co-owner names and street lines of some registrant
/// types (`.individuals` for a bundle shipped to the public); the artifact records it in its
/// `PRIV` section and the manifest counts `ownersWithheld`.
public enum AircraftEmit {
    public static let artifactFile = "aircraft.fgb"
    public static let manifestFile = "manifest.json"
    public static let rejectsFile = "aircraft.rejects.csv"

    public struct Result: Sendable {
        public var manifest: Manifest
        public var entry: Manifest.Artifact
        public var artifactPath: String
    }

    public static func run(handOff: String, outputDirectory: String, redaction: OwnerRedaction = .none,
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Result {
        try run(handOff: handOff, outputDirectory: outputDirectory, redaction: redaction, environment: environment, cuttingAtOrAfter: nil)
    }

    /// `run`, with `registrations.csv` cut at the first line boundary at or past `offset` (by
    /// default the middle; past the last one, it is read in one pass).
    static func run(handOff: String, outputDirectory: String, redaction: OwnerRedaction = .none, environment: [String: String],
                    cuttingAtOrAfter offset: Int?) throws -> Result {
        // registrations.csv, by far the largest, is hashed in the pass that parses it (verified
        // below); the other hand-off files on opening. It sorts last, so the first mismatch
        // reported is the same either way.
        let checked = try HandOff(directory: handOff, report: NormalizedFAA.reportFile, producer: NormalizedFAA.producer,
                                  files: NormalizedFAA.handOffFiles,
                                  streamed: AircraftStatusSections.files.union([NormalizedFAA.registrationsFile]))
        let report = checked.report

        // The reference data (models, engines) is read on another thread while the registrations
        // are, into a part of the builder of its own. An error in the reference files still
        // comes first, as when they were read first.
        let reference = BackgroundTask {
            let data = try AircraftArtifactBuilder.ReferenceData(modelsFile: checked.path(NormalizedFAA.modelsFile),
                                                                 enginesFile: checked.path(NormalizedFAA.enginesFile))
            var part = AircraftArtifactBuilder.Part(expectedModels: data.modelCount, redaction: redaction)
            part.add(data)
            part.sortStrings()
            return part
        }
        // DEREG and RESERVED (when the hand-off has them) into sections of their own meanwhile.
        let status = BackgroundTask { try AircraftStatusSections(handOff: checked, redaction: redaction) }
        var registrations: (parts: [AircraftArtifactBuilder.Part], sha256: String)
        do {
            registrations = try readRegistrations(checked, redaction: redaction, cuttingAtOrAfter: offset)
        } catch {
            _ = try reference.value()
            _ = status.wait()
            // A file that is not the one the report describes is reported as such, even when it
            // also fails to parse.
            try checked.check(NormalizedFAA.registrationsFile)
            throw error
        }
        let referencePart = try reference.take()
        try checked.verify(NormalizedFAA.registrationsFile, sha256: registrations.sha256)
        // The builder holds the parts' only copies: `build()` changes their tables in place, and
        // a copy held here too would make every change copy a table (full size: 334-346 MB
        // peak RSS against 259-276 MB).
        var parts = registrations.parts
        registrations.parts = []
        parts.append(consume referencePart)
        var builder = AircraftArtifactBuilder(parts: consume parts)
        // Each large section goes to a scratch file as soon as it is built, instead of waiting
        // in memory for the last one: peak RSS 199-200 → 172-179 MB at full size.
        builder.spool = try SectionSpool(directory: outputDirectory)
        var (artifact, counts) = builder.build()
        let statusSections = try status.value()
        statusSections.add(to: &artifact)
        for (key, value) in statusSections.counts { counts[key] = value }

        // The ingest's rejects report copied beside its place, the artifact written beside its
        // own, both on disk before either (or the manifest) is renamed into place: a run that
        // cannot write one of them (a full disk) leaves all three as an earlier run left them.
        let rejects = try AtomicFile.prepareCopy(handOff + "/" + NormalizedFAA.rejectsFile, to: outputDirectory + "/" + rejectsFile)
        let artifactPath = outputDirectory + "/" + artifactFile
        var digest = StreamingDigest()
        let outputs = OutputSet()
        let (file, size, sections) = try artifact.prepare(artifactPath) { digest.update($0) }
        try outputs.add(file)
        if let rejects { try outputs.add(rejects) }
        var allCounts = report.counts
        for (key, value) in counts { allCounts[key] = value }
        let entry = Manifest.Artifact(
            file: artifactFile, kind: AircraftSchema.kind.description, bytes: size,
            sha256: digest.finalize(), sections: sections, sources: report.sources, counts: allCounts,
            asOf: Self.isoDate(builder.latestActionDate))
        let manifest = try EmitSupport.publish(entry, outputDirectory: outputDirectory, with: outputs, environment: environment)
        return Result(manifest: manifest, entry: entry, artifactPath: artifactPath)
    }

    /// `2026-08-18` for `20260818`; nil for 0 (no dated registration).
    static func isoDate(_ yyyymmdd: UInt32) -> String? {
        guard yyyymmdd != 0 else { return nil }
        let year = yyyymmdd / 10_000, month = yyyymmdd / 100 % 100, day = yyyymmdd % 100
        return String(year) + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
    }

    /// `registrations.csv` in builder parts, in file order, and its SHA-256.
    ///
    /// A file the report vouches for is cut in two halves, read on two threads into a part
    /// each (`NormalizedFAA.RegistrationHalves`: the hand-off's values never hold a line feed;
    /// a file that is not the hand-off's is reported as a mismatch anyway), the rest of the
    /// file's hash finishing on a thread of its own. A file that cannot be cut is read in one
    /// pass (`CSVPipeline`).
    private static func readRegistrations(_ handOff: HandOff, redaction: OwnerRedaction,
                                          cuttingAtOrAfter offset: Int?) throws -> (parts: [AircraftArtifactBuilder.Part], sha256: String) {
        let path = handOff.path(NormalizedFAA.registrationsFile)
        let expected = handOff.expectedRows(fromSources: "MASTER", in: NormalizedFAA.registrationsFile,
                                            minimumRowBytes: NormalizedFAA.RegistrationField.allCases.count)
        guard let halves = try NormalizedFAA.RegistrationHalves(path: path, cuttingAtOrAfter: offset) else {
            var part = AircraftArtifactBuilder.Part(expectedRegistrations: expected, redaction: redaction)
            let sha256 = try NormalizedFAA.readRegistrationRecords(path) { try part.addRegistration($0) }
            return ([part], sha256)
        }
        // A little more than half the rows each, to be safe. Each thread makes its own part:
        // their tables are large, zeroing them is work to share.
        let rows = expected / 2 + expected / 50
        var read = halves.read { records in
            var part = AircraftArtifactBuilder.Part(expectedRegistrations: rows, redaction: redaction)
            try records.forEach { try part.addRegistration($0) }
            part.sortStrings()
            return part
        }
        // The first error in file order; the parts' only copies: `build()` changes them in place.
        let parts = try read.takeOutputs()
        // The first half was read to its end, so its thread hashes the rest.
        return (parts, try read.digest!.value().finalize())
    }
}
