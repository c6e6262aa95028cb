import FieldGuideArtifact
import FieldGuideCore
import FieldGuideFAA
import Foundation

/// The index/emit stage: normalized FAA hand-off in, `aircraft.fgb` + `manifest.json` out.
///
/// Refuses a hand-off whose report is missing or failed, or whose files do not match the
/// hashes in the report. Writes the artifact, then the manifest, each atomically; on any error
/// the previously published files stay as they were.
///
/// ```swift
/// let result = try AircraftEmit.run(handOff: "output/stage/faa", outputDirectory: "output")
/// ```
public enum AircraftEmit {
    public static let artifactFile = "aircraft.fgb"
    public static let manifestFile = "manifest.json"
    public static let rejectsFile = "aircraft.rejects.csv"

    public struct Result: Sendable {
        public var manifest: Manifest
        public var entry: Manifest.Artifact
        public var artifactPath: String
    }

    public static func run(handOff: String, outputDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Result {
        let reportPath = handOff + "/" + NormalizedFAA.reportFile
        guard FileManager.default.fileExists(atPath: reportPath) else {
            throw FAAError(.badHandOff, file: reportPath, "expected the ingest report of ingest-faa, found none (run ingest-faa first)")
        }
        let report: FAAIngestReport
        do { report = try JSON.decode(FAAIngestReport.self, fromFileAt: reportPath) } catch {
            throw FAAError(.badHandOff, file: reportPath, "expected an ingest report, found unreadable JSON: \(error)")
        }
        guard report.status == "ok" else {
            throw FAAError(.badHandOff, file: reportPath, "ingest failed, nothing to emit: \(report.failure ?? "no reason given")")
        }
        // registrations.csv, by far the largest, is hashed in the pass that parses it (checked
        // below); the other hand-off files first. It sorts last, so the first mismatch reported
        // is the same either way.
        let registrationsPath = handOff + "/" + NormalizedFAA.registrationsFile
        let expectedRegistrationsHash = report.outputs[NormalizedFAA.registrationsFile]
        func mismatch(path: String, expected: String, found: String) -> FAAError {
            FAAError(.badHandOff, file: path, "expected SHA-256 \(expected) from the ingest report, found \(found)")
        }
        if let bad = EmitSupport.firstMismatch(handOff: handOff, outputs: report.outputs.filter { $0.key != NormalizedFAA.registrationsFile }) {
            throw mismatch(path: bad.path, expected: bad.expected, found: bad.found)
        }

        // Models and engines are read on another thread while the registrations are interned
        // here; the builder links the two in `build()`. An error in the reference files still
        // comes first, as when they were read first.
        let reference = BackgroundTask {
            let models = try NormalizedFAA.readModels(handOff + "/" + NormalizedFAA.modelsFile)
            let engines = try NormalizedFAA.readEngines(handOff + "/" + NormalizedFAA.enginesFile)
            return AircraftArtifactBuilder.ReferenceData(models: models, engines: engines)
        }
        func kept(_ prefix: String) -> Int {
            report.sources.filter { $0.file.uppercased().hasPrefix(prefix) }.map(\.rows.kept).reduce(0, +)
        }
        var builder = AircraftArtifactBuilder(expectedRegistrations: kept("MASTER"), expectedModels: kept("ACFTREF"))
        let registrationsHash: String
        do {
            registrationsHash = try NormalizedFAA.readRegistrationRecords(registrationsPath) { try builder.addRegistration($0) }
        } catch {
            _ = try reference.value()
            // A file that is not the one the report describes is reported as such, even when it
            // also fails to parse.
            if let expectedRegistrationsHash {
                let found = (try? FileDigest.sha256(ofFileAt: registrationsPath).digest) ?? "missing"
                if found != expectedRegistrationsHash {
                    throw mismatch(path: registrationsPath, expected: expectedRegistrationsHash, found: found)
                }
            }
            throw error
        }
        let referenceData = try reference.value()
        if let expectedRegistrationsHash, registrationsHash != expectedRegistrationsHash {
            throw mismatch(path: registrationsPath, expected: expectedRegistrationsHash, found: registrationsHash)
        }
        builder.add(referenceData)
        let (artifact, counts) = builder.build()

        let artifactPath = outputDirectory + "/" + artifactFile
        var digest = StreamingDigest()
        let (size, sections) = try artifact.write(to: artifactPath) { digest.update($0) }
        var allCounts = report.counts
        for (key, value) in counts { allCounts[key] = value }
        let entry = Manifest.Artifact(
            file: artifactFile, kind: AircraftSchema.kind.description, bytes: size,
            sha256: digest.finalize(), sections: sections, sources: report.sources, counts: allCounts)
        let manifest = try EmitSupport.publish(entry, outputDirectory: outputDirectory, environment: environment)
        let rejects = handOff + "/" + NormalizedFAA.rejectsFile
        if let data = FileManager.default.contents(atPath: rejects) {
            try AtomicFile.write(Array(data), to: outputDirectory + "/" + rejectsFile)
        }
        return Result(manifest: manifest, entry: entry, artifactPath: artifactPath)
    }
}

