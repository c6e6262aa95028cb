import ArgumentParser
import FieldGuideCore
import FieldGuideEmit
import StageCLI

struct EmitAircraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit-aircraft",
        abstract: "Index the normalized FAA records and write the aircraft artifact.",
        discussion: """
        HANDOFF is the --output directory of ingest-faa. Writes aircraft.fgb, manifest.json and \
        aircraft.rejects.csv into --output, each atomically: a failure leaves the previous ones.

        Exit status: 0 ok; 1 hand-off failed or inconsistent; 2 usage or I/O.
        """)

    @Argument(help: "The directory ingest-faa wrote.")
    var handOff: String

    @Option(name: .shortAndLong, help: "Directory for the artifact and its manifest.")
    var output: String

    func run() throws {
        let log = StageLog(stage: "emit-aircraft")
        let result = try AircraftEmit.run(handOff: handOff, outputDirectory: output)
        let entry = result.entry
        log.info("read \(formatCount(entry.counts["models"] ?? 0)) models, \(formatCount(entry.counts["engines"] ?? 0)) engines, \(formatCount(entry.counts["registrations"] ?? 0)) registrations from \(handOff)")
        log.info("indexed \(formatCount(entry.counts["manufacturers"] ?? 0)) manufacturers, \(formatCount(entry.counts["modeSAddresses"] ?? 0)) Mode S addresses, \(formatCount(entry.counts["strings"] ?? 0)) strings")
        log.info("wrote \(result.artifactPath) (\(formatCount(entry.bytes)) bytes, \(entry.sections.count) sections, sha256 \(entry.sha256.prefix(12))…), \(AircraftEmit.manifestFile), \(AircraftEmit.rejectsFile)")
    }
}

EmitAircraft.runStage(name: "emit-aircraft")
