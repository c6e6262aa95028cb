import ArgumentParser
import FieldGuideArtifact
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

        --redact individuals leaves out the owner name, co-owner names and street address of \
        every registration whose registrant type is Individual (1), keeps city, state, the \
        five-digit ZIP code and country, and records in the artifact that owners are withheld: \
        for a bundle shipped to the public (an app store). The default, none, keeps everything.

        Exit status: 0 ok; 1 hand-off failed or inconsistent; 2 usage or I/O.
        """)

    @Argument(help: "The directory ingest-faa wrote.")
    var handOff: String

    @OptionGroup var output: StageOutput

    @Option(help: "Owners to withhold: none or individuals.")
    var redact: String = "none"

    func validate() throws {
        try requirePath(handOff, option: "<hand-off>")
        guard OwnerRedaction(policy: redact) != nil else {
            throw ValidationError("--redact: expected one of \(OwnerRedaction.policies.map(\.name).joined(separator: ", ")), found \(redact)")
        }
    }

    func run() throws {
        let log = StageLog(stage: "emit-aircraft")
        let redaction = OwnerRedaction(policy: redact)!
        let result = try AircraftEmit.run(handOff: handOff, outputDirectory: output.directory, redaction: redaction)
        let entry = result.entry
        log.info("read \(formatCount(entry.counts["models"] ?? 0, "model")), \(formatCount(entry.counts["engines"] ?? 0, "engine")), \(formatCount(entry.counts["registrations"] ?? 0, "registration")) from \(handOff)")
        log.info("indexed \(formatCount(entry.counts["manufacturers"] ?? 0, "manufacturer")), \(formatCount(entry.counts["modeSAddresses"] ?? 0, "Mode S address", plural: "Mode S addresses")), \(formatCount(entry.counts["strings"] ?? 0, "string"))")
        if !redaction.isNone {
            log.info("withheld the owner name and street of \(formatCount(entry.counts["ownersWithheld"] ?? 0, "registration")) (--redact \(redaction))")
        }
        log.info("wrote \(result.artifactPath) (\(formatCount(entry.bytes)) bytes, \(entry.sections.count) sections, sha256 \(entry.sha256.prefix(12))…), \(AircraftEmit.manifestFile), \(AircraftEmit.rejectsFile)")
    }
}

EmitAircraft.runStage(name: "emit-aircraft")
