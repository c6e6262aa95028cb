import ArgumentParser
import Foundation

/// Exit codes shared by every stage executable.
public enum StageExit: Int32, Sendable {
    case success = 0
    /// The input was read but rejected (bad rows over the threshold, wrong header, failed hand-off).
    case dataRejected = 1
    /// Wrong arguments, or a file that could not be read or written.
    case usageOrIO = 2
}

/// A failure a stage reports: a message and the exit code it maps to.
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
public struct StageLog: Sendable {
    public let stage: String
    public init(stage: String) { self.stage = stage }

    public func info(_ message: String) { write("\(stage): \(message)") }
    public func error(_ message: String) { write("\(stage): error: \(message)") }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension ParsableCommand {
    /// Parses arguments and runs, mapping outcomes to the stage exit codes: `--help` 0,
    /// usage errors 2, `StageFailure` its own code, anything else 2.
    public static func runStage(name: String) -> Never {
        let log = StageLog(stage: name)
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(StageExit.success.rawValue)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let failure as StageFailure {
            log.error(failure.message)
            Foundation.exit(failure.exit.rawValue)
        } catch {
            if exitCode(for: error) == .success { Self.exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(StageExit.usageOrIO.rawValue)
        }
    }
}
