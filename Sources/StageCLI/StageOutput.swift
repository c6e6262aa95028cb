import ArgumentParser
import FieldGuideCore

/// The `-o/--output` option every stage takes: the directory it writes its files and report
/// into, each file atomically (a failure leaves the previous ones).
///
/// One definition, so the option's name, short form and meaning cannot drift between stages;
/// what a stage writes there is in its own discussion.
///
/// ```swift
/// struct RecordHistory: ParsableCommand {
///     @OptionGroup var output: StageOutput
///     func run() throws { let path = try output.prepared(file: "history.fgb") }
/// }
/// ```
package struct StageOutput: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")],
            help: "Directory for the stage's files and report (created if missing; each file written atomically).")
    package var directory: String

    package init() {}

    package func validate() throws {
        try requirePath(directory, option: "--output")
    }

    /// The path of `file` in the directory, the directory created first when it is missing.
    package func prepared(file: String) throws -> String {
        try AtomicFile.prepareDirectory(directory)
        return directory + "/" + file
    }
}

/// Refuses an empty path given to `option`, or to a positional argument named like `<paths>`
/// (a usage error, exit 2). Why: joined with a file's name, `""` becomes `/NAME`, so
/// `--output ""` wrote a stage's hand-off into the root directory, `record-history ""` read
/// `/aircraft.fgb`, and elsewhere the error named no file (`: cannot read artifact`).
///
/// ```swift
/// func validate() throws { try requirePath(state, option: "--state") }
/// // --state: expected a path, found an empty one
/// ```
package func requirePath(_ path: String?, option: String) throws {
    if path?.isEmpty == true { throw ValidationError("\(option): expected a path, found an empty one") }
}

/// ``requirePath(_:option:)`` for each of `paths`.
package func requirePaths(_ paths: [String], option: String) throws {
    for path in paths { try requirePath(path, option: option) }
}
