import ArgumentParser
import FieldGuideCore
import FieldGuideEmit
import StageCLI

struct EmitAircraftIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit-aircraft-index",
        abstract: "Write the manufacturer index (aircraft-index.fgb): models, manufacturers, engines, ICAO types, search.",
        discussion: """
        HANDOFF is the --output directory of ingest-faa; MASTER is not needed (ingest-faa \
        --master-optional). With --icao-types the index holds the ICAO type designators; with \
        --modes and a hand-off that has registrations.csv, the crosswalk from designators to \
        ACFTREF models (each model's majority designator among its registrations' Mode S \
        addresses, with the counts). Writes aircraft-index.fgb and its manifest.json entry into \
        --output, atomically: a failure leaves the previous ones.

        Exit status: 0 ok; 1 hand-off or table rejected (an empty ACFTREF, a table of the wrong \
        shape); 2 usage or I/O.
        """)

    @Argument(help: "The directory ingest-faa wrote.")
    var handOff: String

    @OptionGroup var output: StageOutput

    @Option(help: "ICAO type designators, {\"B738\": [name, description, wake class]} (icao-types.json).")
    var icaoTypes: String?

    @Option(help: "Mode S addresses with their type designators, {\"A1B2C3\": [registration, designator, flags]} (modes-registrations.json).")
    var modes: String?

    func validate() throws {
        try requirePath(handOff, option: "<hand-off>")
        try requirePath(icaoTypes, option: "--icao-types")
        try requirePath(modes, option: "--modes")
    }

    func run() throws {
        let log = StageLog(stage: "emit-aircraft-index")
        let result = try AircraftIndexEmit.run(handOff: handOff, outputDirectory: output.directory, icaoTypes: icaoTypes, modes: modes)
        let counts = result.entry.counts
        func count(_ key: String) -> String { formatCount(counts[key] ?? 0) }
        func count(_ key: String, _ noun: String) -> String { formatCount(counts[key] ?? 0, noun) }
        log.info("read \(count("models", "model")), \(count("engines", "engine")) from \(handOff)" + (icaoTypes.map { ", \(count("typesFromICAOList", "designator")) from \($0)" } ?? ""))
        if let modes {
            if result.registrationsRead == 0 {
                log.info("no registrations in \(handOff) (no MASTER): no crosswalk from \(modes)")
            } else {
                log.info("crosswalk: \(count("crosswalkRegistrations")) of \(formatCount(result.registrationsRead)) registrations have a designator (\(modes)) and a model; \(count("crosswalkModels")) models")
            }
        }
        log.info("indexed \(count("manufacturers", "manufacturer")), \(count("types", "type")), \(count("searchAtoms")) search words, \(count("searchPostings")) postings")
        log.info("wrote \(result.artifactPath) (\(formatCount(result.entry.bytes)) bytes, \(result.entry.sections.count) sections, sha256 \(result.entry.sha256.prefix(12))…), \(EmitSupport.manifestFile)")
    }
}

EmitAircraftIndex.runStage(name: "emit-aircraft-index")
