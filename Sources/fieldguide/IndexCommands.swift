import ArgumentParser
import FieldGuide
import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideCore
import FieldGuideExports
import Foundation
import StageCLI

/// `--bundle` and `--format` of the manufacturer-index subcommands.
struct IndexOptions: ParsableArguments {
    @Option(help: "The manufacturer index to read, or a folder holding it as aircraft-index.fgb.")
    var bundle: String = "output/aircraft-index.fgb"

    /// The index file `--bundle` names (see `artifactPath`).
    var path: String { artifactPath(bundle, named: "aircraft-index.fgb") }

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws { try requirePath(bundle, option: "--bundle") }

    func open() throws(ArtifactError) -> AircraftIndex {
        do { return try AircraftIndex(path: path) } catch { throw error.underlying }
    }
}

extension FieldGuideCommand {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search type designators, models and manufacturers of the manufacturer index (\"Cessna 172S\", \"King Air 200\").",
            discussion: "Case, punctuation, hyphens and spacing do not matter; a word of five letters or more may have one typo. A text with no letter or digit is a usage error (exit 2).")
        @Argument(help: "What to look for.") var text: String
        @Option(help: "At most this many results.") var limit: Int = 10
        @Option(help: "Only these kinds: type, model, manufacturer (repeatable).") var kind: [String] = []
        @OptionGroup var options: IndexOptions

        func validate() throws {
            try requireLimit(limit)
            for k in kind where AircraftSearchResult.Kind(rawValue: k) == nil {
                throw ValidationError("--kind: expected type, model or manufacturer, found \(shown(k))")
            }
        }

        func run() throws {
            let index = try options.open()
            let kinds = kind.isEmpty ? Set(AircraftSearchResult.Kind.allCases) : Set(kind.compactMap(AircraftSearchResult.Kind.init))
            let results = try index.search(text, limit: limit, kinds: kinds)
            try printOutput(results, format: options.format) {
                results.isEmpty ? "no results for \(text)" : results.map(Self.line).joined(separator: "\n")
            }
        }

        /// `0.925  type          B738  BOEING 737-800   BOENG ~ BOEING (typo), 737, 800`.
        static func line(_ r: AircraftSearchResult) -> String {
            let score = String(format: "%.3f", r.score)
            let how = r.exact.map { "exact \($0.rawValue)" }
                ?? r.matches.map { $0.how == .exact ? $0.word : "\($0.word) ~ \($0.found) (\($0.how.rawValue))" }.joined(separator: ", ")
            return "\(score)  \(r.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))  \(r.title)    \(how)"
        }
    }

    struct TypeDesignatorCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "type",
            abstract: "An ICAO type designator (B738) with its ACFTREF models by the crosswalk; an unknown one gets the closest.")
        @Argument(help: "The designator.") var designator: String
        @Option(help: "At most this many models.") var limit: Int = 20
        @OptionGroup var options: IndexOptions

        func validate() throws {
            try requireText(designator, "<designator>", "an ICAO type designator (B738)")
            try requireLimit(limit)
        }

        struct Output: Encodable {
            let type: TypeDesignatorInfo
            let models: [Model]
            struct Model: Encodable { let model: ModelInfo; let registrations: Int; let modelRegistrations: Int }
        }

        func run() throws {
            let index = try options.open()
            guard let type = index.type(designator: designator) else {
                let closest = index.closestDesignators(to: designator)
                throw StageFailure(.dataRejected, "no designator \(shown(designator.uppercased())) in \(options.path)"
                    + (closest.isEmpty ? "" : "; closest: " + closest.map { d in index.type(designator: d).map { $0.name.isEmpty ? d : "\(d) (\($0.name))" } ?? d }.joined(separator: ", ")))
            }
            let models = type.models.prefix(limit).map { Output.Model(model: $0.model.info, registrations: $0.registrations, modelRegistrations: $0.modelRegistrations) }
            let output = Output(type: type.info, models: Array(models))
            try printOutput(output, format: options.format) {
                var text = lines([("Designator", output.type.designator), ("Name", output.type.name),
                                  ("Description", output.type.description.isEmpty ? nil : "\(output.type.description) (\(output.type.describedAs))"),
                                  ("Wake class", output.type.wakeClass)])
                text += models.isEmpty ? "\nModels      none in the crosswalk" : "\nModels (crosswalk: registrations with this designator of those with one)"
                for m in models {
                    text += "\n  \(m.model.code)  \(m.model.manufacturer) \(m.model.model)  \(m.registrations) of \(m.modelRegistrations)"
                }
                return text
            }
        }
    }

    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Match a capture (designator, manufacturer, model) to its type and ranked ACFTREF models, or every capture of a CSV.",
            discussion: "--captures reads the aircraft app's capture export (icao, manufacturer, model columns) and writes one CSV row per capture to standard output (or --output).")
        @Option(help: "ICAO type designator (C172).") var designator: String?
        @Option(help: "Manufacturer as written (Cessna).") var manufacturer: String?
        @Option(help: "Model as written (172S).") var model: String?
        @Option(help: "A capture export CSV: one output row per capture.") var captures: String?
        @Option(name: .shortAndLong, help: "Write the --captures CSV here instead of standard output.") var output: String?
        @Option(help: "At most this many candidates.") var limit: Int = 5
        @OptionGroup var options: IndexOptions

        func validate() throws {
            // A field left empty (or blank) is absent, as in a capture row without it.
            let single = [designator, manufacturer, model].contains { $0?.contains { !$0.isWhitespace } == true }
            if captures != nil && single { throw ValidationError("--captures takes no --designator, --manufacturer or --model") }
            if captures == nil && !single { throw ValidationError("expected --captures FILE, or --designator, --manufacturer or --model") }
            if output != nil && captures == nil { throw ValidationError("--output is for --captures") }
            try requirePath(output, option: "--output")
            try requireLimit(limit)
        }

        func run() throws {
            let index = try options.open()
            if let captures { return try batch(index, captures) }
            let match = index.match(designator: designator, manufacturer: manufacturer, model: model, limit: limit)
            try printOutput(match, format: options.format) { Self.describe(match) }
        }

        static func describe(_ match: CaptureMatch) -> String {
            var out: [String] = []
            if let type = match.type {
                out.append("\(type.designator)  \(type.name)  \(type.description) \(type.wakeClass)")
            } else if !match.designator.isEmpty {
                out.append("\(match.designator): not in the index" + (match.closestDesignators.isEmpty ? "" : " (closest: \(match.closestDesignators.joined(separator: ", ")))"))
            }
            if match.candidates.isEmpty { out.append("no ACFTREF model matches") }
            for (rank, c) in match.candidates.enumerated() {
                out.append("\(rank + 1). \(String(format: "%.3f", c.score))  \(c.manufacturer) \(c.model) (\(c.code))")
                out.append(contentsOf: c.reasons.map { "      \($0)" })
            }
            return out.joined(separator: "\n")
        }

        /// One CSV row per capture, through libcsv.
        private func batch(_ index: AircraftIndex, _ path: String) throws {
            let subjects = try CaptureExport.subjects(path: path)
            var writer = CSVWriter()
            writer.write(["line", "icao", "manufacturer", "model", "registration", "type", "type_name", "rank1_code",
                          "rank1_manufacturer", "rank1_model", "rank1_score", "candidates", "closest_designators"])
            var resolved = 0
            // A match depends on the three fields alone, and an export repeats them (the real
            // 2,000 captures hold 724 triples): each is matched once (0.6 ms a match).
            struct Key: Hashable { let icao, manufacturer, model: String }
            var matched: [Key: CaptureMatch] = [:]
            for s in subjects {
                let key = Key(icao: s.icao, manufacturer: s.manufacturer, model: s.model)
                let match = matched[key] ?? index.match(designator: s.icao, manufacturer: s.manufacturer, model: s.model, limit: limit)
                matched[key] = match
                let best = match.best
                if best != nil { resolved += 1 }
                writer.write([String(s.line), s.icao, s.manufacturer, s.model, s.registration,
                              s.icao.isEmpty ? "" : (match.type == nil ? "unknown" : "found"), match.type?.name ?? "",
                              best?.code ?? "", best?.manufacturer ?? "", best?.model ?? "", best.map { String(format: "%.3f", $0.score) } ?? "",
                              String(match.candidates.count), match.closestDesignators.joined(separator: " ")])
            }
            if let output {
                try AtomicFile.write(writer.takeBytes(), to: output)
            } else {
                FileHandle.standardOutput.write(Data(writer.takeBytes()))
            }
            StageLog(stage: "fieldguide").info("matched \(formatCount(subjects.count, "capture")) from \(path): \(formatCount(resolved)) with an ACFTREF candidate")
        }
    }
}
