import FieldGuideCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One stage executable running as a child process, its output delivered line by line.
///
/// ```swift
/// let child = StageProcess(executable: ".build/release/ingest-faa", arguments: ["input/faa", "--output", dir])
/// let status = try child.run { line in print("[ingest-faa] \(line)") }
/// ```
final class StageProcess: @unchecked Sendable {
    let executable: String
    let arguments: [String]
    let environment: [String: String]
    private let process = Process()
    private let lock = NSLock()
    private var terminated = false

    init(executable: String, arguments: [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Runs to completion; `onLine` gets each line of standard output and standard error as it
    /// arrives (from reader threads, one call at a time per stream). Returns the exit status.
    func run(onLine: @escaping @Sendable (String) -> Void) throws(PipelineError) -> Int32 {
        let out = Pipe(), err = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let readers = DispatchGroup()
        for pipe in [out, err] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        onLine(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)) }
                readers.leave()
            }
        }
        do {
            lock.lock()
            defer { lock.unlock() }
            if terminated { throw PipelineError(.cancelled, "not started: the run was interrupted") }
            try Self.withSignalsUnblocked { try process.run() }
        } catch let error as PipelineError {
            throw error
        } catch {
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            throw PipelineError(.io, "\(executable): cannot start: \(SystemReason.of(error))")
        }
        // The child has its own copies of the write ends; close ours so reads see EOF.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        process.waitUntilExit()
        readers.wait()
        if process.terminationReason == .uncaughtSignal { return 128 + process.terminationStatus }
        return process.terminationStatus
    }

    /// Runs `body` (the spawn) with no signal blocked on this thread: a child inherits the
    /// blocked signals of the thread that starts it, and threads started from a dispatch or
    /// task-pool thread block nearly all of them, SIGTERM included.
    private static func withSignalsUnblocked(_ body: () throws -> Void) rethrows {
        var none = sigset_t(), saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try body()
    }

    /// Sends SIGTERM to the child (if it is running) and keeps it from starting otherwise.
    func terminate() {
        lock.lock()
        defer { lock.unlock() }
        terminated = true
        if process.isRunning { process.terminate() }
    }
}
