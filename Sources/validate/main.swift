import ArgumentParser
import FieldGuideBirds
import FieldGuideCore
import Foundation
import StageCLI

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check bird seed JSON (databases, watchlists, home data) and report every problem.",
        discussion: """
        PATH is a file or a directory (searched recursively, links followed, for *.json seed files and *.csv \
        taxonomies). Every problem is reported in one run: syntax errors at the line and column \
        where the JSON breaks; missing or mistyped fields, broken references, duplicates, values \
        out of range, total_species mismatches (errors); near-duplicate vocabulary, non-binomial \
        scientific names, disagreements with the taxonomy (warnings). Watchlists and home data are \
        checked against the bird database in their directory.

        Formats: human (file:line:col: error: message), json (the whole report), github (GitHub \
        Actions ::error annotations).

        Exit status: 0 clean (warnings allowed unless --strict); 1 problems found; 2 usage or I/O.
        """)

    @OptionGroup var inputs: SeedInputs

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Option(help: "Output format: human, json or github.")
    var format: FindingFormatter.Format = .human

    @Flag(help: "Pass when no seed file is found (by default finding none is an error: a wrong path).")
    var allowEmpty = false

    @Flag(help: "Also check files under history/ directories (archives of older generations).")
    var includeHistory = false

    func run() throws {
        let log = StageLog(stage: "validate")
        var validator = SeedValidator(taxonomyPath: inputs.taxonomy)
        validator.includeHistory = includeHistory
        let report = try validator.validate(paths: inputs.paths)
        if report.files.isEmpty && !allowEmpty {
            throw StageFailure(.usageOrIO, "checked 0 files: no seed JSON or taxonomy CSV in \(inputs.paths.joined(separator: ", "))"
                + (includeHistory ? "" : " (history/ skipped; --include-history reads it)") + "; --allow-empty passes anyway")
        }
        FileHandle.standardOutput.write(Data(try FindingFormatter.format(report, as: format).utf8))
        let kinds = report.files.map { summary in
            summary.generation.map { "\(summary.file) (\(summary.kind.rawValue) \($0.rawValue))" } ?? "\(summary.file) (\(summary.kind.rawValue))"
        }
        log.info("checked \(formatCount(report.files.count, "file")): \(kinds.joined(separator: ", "))")
        let summary = "\(formatCount(report.errors, "error")), \(formatCount(report.warnings, "warning"))"
        guard report.passes(strict: strict) else {
            throw StageFailure(.dataRejected, summary + (report.errors == 0 ? " (--strict: warnings fail)" : ""))
        }
        log.info(summary)
    }
}

extension FindingFormatter.Format: ExpressibleByArgument {}

Validate.runStage(name: "validate")
