import ArgumentParser
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Exit codes shared by every stage executable.
public enum StageExit: Int32, Sendable {
    case success = 0
    /// The input was read but rejected (bad rows over the threshold, wrong header, failed hand-off).
    case dataRejected = 1
    /// Wrong arguments, or a file that could not be read or written.
    case usageOrIO = 2

    /// The exit status for an error a stage throws: the one mapping every executable shares.
    ///
    /// A `StageFailure` keeps its own status; a `LocatedError` is usage or I/O by its kind
    /// (``LocatedError/Kind/isUsageOrIO``), else data rejected; an `ArtifactError` is I/O when
    /// the file could not be opened, else data rejected (corrupt, truncated, another kind);
    /// anything else is a usage or I/O failure.
    ///
    /// ```swift
    /// StageExit(for: LocatedError(.wrongHeader, file: "MASTER.txt", line: 1, message: "…"))   // .dataRejected
    /// StageExit(for: ArtifactError.io(path: "x.fgb", reason: "No such file or directory"))     // .usageOrIO
    /// ```
    public init(for error: any Error) {
        switch error {
        case let failure as StageFailure: self = failure.exit
        case let located as LocatedError: self = located.kind.isUsageOrIO ? .usageOrIO : .dataRejected
        case let artifact as ArtifactError:
            if case .io = artifact { self = .usageOrIO } else { self = .dataRejected }
        default: self = .usageOrIO
        }
    }

    /// What a stage prints for `error` after `stage: error: `: the error's own description,
    /// and for a Foundation or POSIX error the system's words, never Foundation's dump.
    public static func message(for error: any Error) -> String {
        switch error {
        case let failure as StageFailure: return failure.message
        case let located as LocatedError: return located.description
        case let artifact as ArtifactError: return artifact.description
        default:
            let domain = (error as NSError).domain
            return domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain ? SystemReason.of(error) : String(describing: error)
        }
    }
}

/// A failure a stage reports with an exit status of its own choosing: a summary line (`3 of
/// 5 files could not be read`), or a file named by an option that is wrong whatever the reason.
///
/// ```swift
/// throw StageFailure(.dataRejected, "12 errors, 3 warnings")   // validate: error: 12 errors, 3 warnings (exit 1)
/// ```
public struct StageFailure: Error, CustomStringConvertible {
    public var exit: StageExit
    public var message: String
    public init(_ exit: StageExit, _ message: String) {
        self.exit = exit
        self.message = message
    }
    public var description: String { message }
}

/// Progress lines on standard error, prefixed with the stage name.
///
/// A message names files, directories and values from the input: its control characters are
/// escaped (`LocatedError.visible`), so a directory named `faa\u{1B}[2J` cannot clear the
/// operator's terminal and a line break in a name cannot forge a second line. An error keeps
/// its line breaks (a message may hold several lines; `LocatedError` escapes its own parts).
public struct StageLog: Sendable {
    public let stage: String
    public init(stage: String) { self.stage = stage }

    public func info(_ message: String) { write("\(stage): \(LocatedError.visible(message))") }
    public func error(_ message: String) { write("\(stage): error: \(LocatedError.visible(message, keepingLines: true))") }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension ParsableCommand {
    /// Parses arguments and runs. A stage's error is printed once, as `stage: error: …`, and
    /// exits with ``StageExit/init(for:)``; ArgumentParser's own (a usage error, `--help`) is
    /// printed as it renders it, with the usage line, and exits 2 (0 for help). The process's
    /// allocator is set up first (`StageMemory`).
    public static func runStage(name: String) -> Never {
        StageMemory.configure()
        // A file-size limit (`ulimit -f`) met while writing is a write error the stage reports
        // (`File too large`, exit 2, its temporary files removed), not a signal that kills it
        // halfway and leaves them behind.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command: ParsableCommand
            do { command = try parseAsRoot() } catch {
                // A mistyped option is named first: ArgumentParser may report a missing
                // required option (--output) instead of the mistyped one (--ouput).
                if exitCode(for: error) != .success, let unknown = unknownOption(in: Array(CommandLine.arguments.dropFirst())) {
                    FileHandle.standardError.write(Data((unknown + "\n").utf8))
                    Foundation.exit(StageExit.usageOrIO.rawValue)
                }
                throw error
            }
            try command.run()
            Foundation.exit(StageExit.success.rawValue)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let parserStatus = exitCode(for: error)
            if parserStatus == .success { Self.exit(withError: error) }
            // ArgumentParser gives every error it does not know the generic failure status.
            if parserStatus == .failure {
                StageLog(stage: name).error(StageExit.message(for: error))
                Foundation.exit(StageExit(for: error).rawValue)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(StageExit.usageOrIO.rawValue)
        }
    }
}

extension ParsableCommand {
    /// "Error: unknown option '--ouput'; did you mean '--output'?" with the (sub)command's
    /// usage, for the first `--option` the command does not take; nil when every one is known.
    static func unknownOption(in arguments: [String]) -> String? {
        var command: ParsableCommand.Type = self
        for argument in arguments where !argument.hasPrefix("-") {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            command = sub
        }
        let help = helpMessage(for: command, columns: 1000)
        var known: Set<String> = ["--help", "--version"]
        var rest = help[...]
        while let start = rest.range(of: "--") {
            let name = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if name.count > 2 { known.insert(String(name)) }
            rest = rest[start.upperBound...]
        }
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let option = String(argument.prefix { $0 != "=" })
            guard !known.contains(option) else { continue }
            let closest = EditDistance.closest(to: option, among: Array(known), count: 1)
            let usage = usageString(for: command)
            let root: String = Self._commandName
            let sub: String = command._commandName
            let commandName = root == sub ? root : root + " " + sub
            return "Error: unknown option '\(option)'" + (closest.first.map { "; did you mean '\($0)'?" } ?? "")
                + "\nUsage: \(usage)\n  See '\(commandName) --help' for more information."
        }
        return nil
    }
}
