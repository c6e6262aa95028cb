import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stage processes of a killed run, still writing into its staging.
///
/// A stage runs in a process group of its own, so a SIGKILL to `pipeline` leaves it running.
/// The next run, holding the lock, knows that no live run has stages, so a stray is any
/// process group that
/// - a stage record names (`staging/RUN/stages/NAME.pgid`, written when the stage started),
///   whose leader started before that record was written (a reused id started later), or
/// - holds a process with an argument inside this pipeline's staging directory (resolved
///   against its own working directory),
///
/// and it is killed whole before the staging is cleared. Linux only (it reads `/proc`);
/// elsewhere strays finish on their own (writing to the closed log pipe stops them).
///
/// ```swift
/// StrayStages.stop(staging: "output/.pipeline/nightly/staging")   // the groups it killed
/// ```
enum StrayStages {
    /// Kills the process groups of processes working in `staging` and waits (up to 2 s) for
    /// them to go. Returns the groups killed.
    @discardableResult
    static func stop(staging: String) -> [pid_t] {
        #if os(Linux)
        // Nothing staged, nothing to stop: a stage is found by a path under the staging
        // directory that still resolves, or by a record in it. This skips reading every
        // process's command line, a tenth of an unchanged rerun's time on a busy machine.
        guard let runs = try? FileManager.default.contentsOfDirectory(atPath: staging), !runs.isEmpty else { return [] }
        guard let root = realpath(staging, nil) else { return [] }
        let prefix = String(cString: root) + "/"
        free(root)
        let own = getpgrp()
        var groups = Set<pid_t>()
        for pid in processes() where pid != getpid() {
            guard let group = processGroup(pid), group > 1, group != own, works(in: prefix, pid) else { continue }
            groups.insert(group)
        }
        for (group, written) in records(in: staging) where group > 1 && group != own {
            if processGroup(group) == group, let started = startTime(group), started <= written + 1 { groups.insert(group) }
        }
        for group in groups { kill(-group, SIGKILL) }
        for _ in 0..<100 where groups.contains(where: { kill(-$0, 0) == 0 }) { usleep(20_000) }
        return groups.sorted()
        #else
        return []
        #endif
    }

    /// The file a stage's process group is recorded in, beside its staging directory.
    static func record(for stageDirectory: String) -> String { stageDirectory + ".pgid" }

    #if os(Linux)
    /// Each recorded group with the time (seconds since the epoch) its record was written.
    private static func records(in staging: String) -> [(pid_t, Double)] {
        let fm = FileManager.default
        var out: [(pid_t, Double)] = []
        for run in (try? fm.contentsOfDirectory(atPath: staging)) ?? [] {
            let stages = staging + "/" + run + "/stages"
            for name in (try? fm.contentsOfDirectory(atPath: stages)) ?? [] where name.hasSuffix(".pgid") {
                let path = stages + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                      let text = try? String(contentsOfFile: path, encoding: .utf8),
                      let group = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
                out.append((group, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            }
        }
        return out
    }

    /// When `pid` started, in seconds since the epoch (field 22 of `/proc/PID/stat` after boot).
    private static func startTime(_ pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")"),
              let boot = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?
                .split(separator: "\n").first(where: { $0.hasPrefix("btime ") }).flatMap({ Double($0.dropFirst(6)) }) else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    #endif

    private static func processes() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
    }

    /// Field 5 of `/proc/PID/stat` (after the command name in parentheses).
    private static func processGroup(_ pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[2]) : nil
    }

    /// Whether an argument of `pid`, resolved against its working directory, is inside `prefix`.
    private static func works(in prefix: String, _ pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard arguments.contains(where: { $0.contains("/staging/") }) else { return false }
        let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? "/"
        return arguments.contains { argument in
            guard argument.contains("/staging/") else { return false }
            let absolute = argument.hasPrefix("/") ? argument : cwd + "/" + argument
            guard let resolved = realpath(absolute, nil) else { return false }
            defer { free(resolved) }
            return (String(cString: resolved) + "/").hasPrefix(prefix)
        }
    }
}
