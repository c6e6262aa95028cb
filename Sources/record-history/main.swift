import ArgumentParser
import FieldGuideCore
import FieldGuidePipeline
import StageCLI

struct RecordHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-history",
        abstract: "Write the registry history (history.fgb) of the build a run is about to publish.",
        discussion: """
        AIRCRAFT_DIR is the --output directory of emit-aircraft (aircraft.fgb and its manifest.json). \
        --published names the build published now (its aircraft.fgb and history.fgb); without one \
        (the first build) the history starts here, with no events. Writes history.fgb into --output, \
        atomically: the published history carried forward (the newest 32 events per N-number) plus \
        what changed per N-number between the two artifacts (registered, deregistered, owner, status, \
        address, model), the new events named after --build. An artifact equal to the published one \
        (the same SHA-256 in both manifests) copies the published history byte for byte. A published \
        history that does not open is not carried forward: a warning, and the history starts again.

        Exit status: 0 ok; 1 the new artifact is damaged; 2 usage or I/O.
        """)

    @Argument(help: "The directory emit-aircraft wrote (aircraft.fgb, manifest.json).")
    var aircraftDirectory: String

    @Option(help: "The build published now (a directory with aircraft.fgb, history.fgb, manifest.json).")
    var published: String?

    @Option(help: "The name of the build being made (the run id): what its events are named after.")
    var build: String

    @OptionGroup var output: StageOutput

    func validate() throws {
        try requirePath(published, option: "--published")
        try requirePath(aircraftDirectory, option: "<aircraft-directory>")
        if build.isEmpty { throw ValidationError("--build: expected the build's name (its run id), found an empty one") }
    }

    func run() throws {
        let log = StageLog(stage: "record-history")
        let path = try output.prepared(file: RegistrationHistoryStage.fileName)
        switch try RegistrationHistoryStage.run(aircraft: aircraftDirectory, published: published, build: build, to: path) {
        case .carried(let events):
            log.info("the artifact is the published one: its history carried as it is (\(formatCount(events, "event"))) to \(path)")
        case .written(let added, let kept, let warning):
            if let warning { log.info("warning: \(warning)") }
            log.info("wrote \(path): \(formatCount(added, "event")) from builds/\(build), \(formatCount(kept)) kept")
        }
    }
}

RecordHistory.runStage(name: "record-history")
