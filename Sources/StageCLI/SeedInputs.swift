import ArgumentParser

/// The inputs every bird seed command takes: files or directories of seed JSON, and the
/// taxonomy to link birds to (`ingest-birds`, `validate`).
///
/// ```swift
/// struct Validate: ParsableCommand {
///     @OptionGroup var inputs: SeedInputs
///     func run() throws { let report = try SeedValidator(taxonomyPath: inputs.taxonomy).validate(paths: inputs.paths) }
/// }
/// ```
package struct SeedInputs: ParsableArguments {
    @Argument(help: "Seed files (bird database, watchlists, home data) or directories holding them.")
    package var paths: [String]

    @Option(help: "eBird/Clements taxonomy CSV to link birds to (default: a taxonomy CSV among the inputs).")
    package var taxonomy: String?

    package init() {}

    package func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one seed file or directory") }
        try requirePaths(paths, option: "<paths>")
        try requirePath(taxonomy, option: "--taxonomy")
    }
}
