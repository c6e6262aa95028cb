import FieldGuideCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One stage executable running as a child process in a process group of its own, its output
/// delivered line by line.
///
/// The stage and everything it starts share its process group, so stopping it (an
/// interruption, its time-out) stops them all: SIGTERM to the group, then SIGKILL after
/// `grace`. Processes the stage leaves behind when it exits are stopped too (they would hold
/// its output pipes open). The child gets no descriptor of the pipeline beyond its standard
/// streams (not the lock), and every signal at its default.
///
/// ```swift
/// let child = StageProcess(executable: ".build/release/ingest-faa", arguments: ["input/faa", "--output", dir])
/// let ending = try child.run(timeout: .seconds(3600)) { line in print("[ingest-faa] \(line)") }
/// ending.status   // 0, or 128 + the signal that ended it
/// ```
final class StageProcess: @unchecked Sendable {
    /// How the process ended.
    struct Ending: Sendable, Equatable {
        /// The exit status, or 128 + the signal that ended it.
        var status: Int32
        /// It ran past its time-out and was stopped.
        var timedOut: Bool
    }

    let executable: String
    let arguments: [String]
    let environment: [String: String]
    /// How the stage shares the cores: `background` starts it through `nice -n 10`.
    let priority: StagePriority
    /// How long a stopped stage has between SIGTERM and SIGKILL.
    let grace: Duration
    private let lock = NSLock()
    private var pid: pid_t = 0
    /// Set once the process is stopped (interrupted or timed out): when SIGTERM went out.
    private var stopping: ContinuousClock.Instant?
    private var terminated = false
    private var reaped = false

    init(executable: String, arguments: [String], environment: [String: String], priority: StagePriority = .normal,
         grace: Duration = .seconds(5)) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.priority = priority
        self.grace = grace
    }

    /// Runs to completion or to `timeout`; `onLine` gets each line of standard output and
    /// standard error as it arrives (from reader threads, one call at a time per stream).
    func run(timeout: Duration, onStart: (pid_t) -> Void = { _ in }, onLine: @escaping @Sendable (String) -> Void) throws(PipelineError) -> Ending {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw PipelineError(.io, "cannot create a pipe: \(SystemReason.errnoText)") }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let readers = DispatchGroup()
        for fd in [out[0], err[0]] { Self.readLines(fd, group: readers, onLine: onLine) }
        do {
            try spawn(stdout: out[1], stderr: err[1])
        } catch {
            close(out[1]); close(err[1])
            readers.wait()
            throw error
        }
        // The child has its own copies of the write ends; close ours so reads see EOF.
        close(out[1]); close(err[1])
        onStart(pid)
        let timedOut = waitForExit(timeout: timeout)
        // The stage is done (a zombie, its pid and group still reserved): whatever it left
        // running in its group goes now, or its output pipes would never close.
        signalGroup(SIGKILL)
        readers.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        lock.lock()
        reaped = true
        lock.unlock()
        let signalled = status & 0x7f
        return Ending(status: signalled == 0 ? (status >> 8) & 0xff : 128 + signalled, timedOut: timedOut)
    }

    /// Sends SIGTERM to the stage's process group (SIGKILL follows after the grace) and keeps
    /// it from starting otherwise.
    func terminate() {
        lock.lock()
        terminated = true
        let running = pid != 0 && !reaped && stopping == nil
        if running { stopping = .now }
        lock.unlock()
        if running { signalGroup(SIGTERM) }
    }

    // MARK: Starting and stopping

    private func spawn(stdout: Int32, stderr: Int32) throws(PipelineError) {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        Self.closeDescriptorsFrom3(&actions)
        // Its own process group; no signal blocked (threads of the pool block nearly all, and
        // a child inherits that), every signal at its default (the pipeline ignores SIGINT).
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let (program, words) = try commandLine()
        let argv = words.map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        lock.lock()
        defer { lock.unlock() }
        if terminated { throw PipelineError(.cancelled, "not started: the run was interrupted") }
        var child: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { args in
            (envp + [nil]).withUnsafeBufferPointer { env in
                posix_spawn(&child, program, &actions, &attributes, args.baseAddress!, env.baseAddress!)
            }
        }
        guard code == 0 else { throw PipelineError(.io, "\(executable): cannot start: \(String(cString: strerror(code)))") }
        pid = child
    }

    /// The program to start and its argv: the stage itself, or for a background stage
    /// `nice -n 10 -- STAGE ARGS…`, so the stage is nicer than the pipeline from its first
    /// instruction, with every thread and process it starts (posix_spawn cannot lower a
    /// priority itself, and setting it after the start would race the stage's own threads).
    /// Without `nice` on the machine the stage runs at the pipeline's priority.
    private func commandLine() throws(PipelineError) -> (program: String, argv: [String]) {
        guard priority == .background, access(Self.nice, X_OK) == 0 else { return (executable, [executable] + arguments) }
        // What posix_spawn would refuse, refused alike (`nice` would exit 127 instead).
        guard access(executable, X_OK) == 0 else {
            throw PipelineError(.io, "\(executable): cannot start: \(String(cString: strerror(errno)))")
        }
        return (Self.nice, [Self.nice, "-n", "10", "--", executable] + arguments)
    }

    /// coreutils' `nice`: runs a command with its nice value raised by `-n`, at most to 19.
    private static let nice = "/usr/bin/nice"

    /// Waits for the stage to exit without reaping it; past `timeout` stops it (SIGTERM, then
    /// SIGKILL after the grace). True when it timed out.
    private func waitForExit(timeout: Duration) -> Bool {
        let exited = DispatchSemaphore(value: 0)
        let pid = pid
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            exited.signal()
        }
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        var killed = false
        while exited.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let now = ContinuousClock.now
            lock.lock()
            if stopping == nil && now >= deadline {
                stopping = now
                timedOut = true
                lock.unlock()
                signalGroup(SIGTERM)
                continue
            }
            let escalate = !killed && stopping.map { now >= $0 + grace } == true
            lock.unlock()
            if escalate {
                killed = true
                signalGroup(SIGKILL)
            }
        }
        return timedOut
    }

    /// `signal` to the stage's process group, while its leader is not reaped (so the group id
    /// cannot belong to anyone else).
    private func signalGroup(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        guard pid > 0, !reaped else { return }
        kill(-pid, signal)
    }

    /// Every descriptor from 3 up closed in the child (`posix_spawn_file_actions_addclosefrom_np`,
    /// glibc 2.34, looked up at run time); without it the pipeline's own are close-on-exec.
    private static func closeDescriptorsFrom3(_ actions: inout posix_spawn_file_actions_t) {
        #if canImport(Glibc)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif
    }

    /// Reads `fd` to its end on a thread of its own, handing over each line; closes it.
    private static func readLines(_ fd: Int32, group: DispatchGroup, onLine: @escaping @Sendable (String) -> Void) {
        group.enter()
        Thread.detachNewThread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[..<n])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)) }
            close(fd)
            group.leave()
        }
    }
}
