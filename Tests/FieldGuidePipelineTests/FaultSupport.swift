import FieldGuide
import FieldGuideArtifactWriter
import FieldGuideCore
@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Checks shared by the fault tests: what "the published build is intact" means.
enum Published {
    /// Throws unless `current` (under `root`, which may be a `/proc/PID/root` view) points at a
    /// build under `builds/` whose manifest lists every artifact with its SHA-256, each
    /// opening with full verification. Returns the build `current` names.
    @discardableResult
    static func verify(_ output: String, stableNames: Bool = true) throws -> String {
        let fm = FileManager.default
        let target = try fm.destinationOfSymbolicLink(atPath: output + "/current")
        #expect(target.hasPrefix("builds/") && !target.contains(".."), "current → \(target)")
        let build = output + "/" + target
        let manifest = try Manifest.decode(from: try Data(contentsOf: URL(fileURLWithPath: build + "/manifest.json")))
        #expect(manifest.artifacts.map(\.file) == ["aircraft-index.fgb", "aircraft.fgb", "birds.fgb"])
        for artifact in manifest.artifacts {
            let path = build + "/" + artifact.file
            #expect(try FileDigest.sha256(ofFileAt: path).digest == artifact.sha256, "\(path)")
            switch artifact.file {
            case "aircraft.fgb": _ = try AircraftBundle(path: path)
            case "aircraft-index.fgb": _ = try AircraftIndex(path: path)
            default: _ = try BirdsBundle(path: path)
            }
            if stableNames {
                // The stable name beside `current` reads the same bytes.
                #expect(fm.contents(atPath: output + "/" + artifact.file) == fm.contents(atPath: path), "\(artifact.file)")
            }
        }
        return target
    }

    /// A listing of everything under `path` (names, sizes, link targets), to prove it untouched.
    static func listing(_ path: String) -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        func visit(_ full: String, _ relative: String) {
            if let target = try? fm.destinationOfSymbolicLink(atPath: full) {
                out.append("\(relative) -> \(target)")
                return
            }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: full, isDirectory: &isDirectory) else { return }
            if isDirectory.boolValue {
                out.append(relative + "/")
                for name in ((try? fm.contentsOfDirectory(atPath: full)) ?? []).sorted() { visit(full + "/" + name, relative + "/" + name) }
            } else {
                out.append("\(relative) \(fm.contents(atPath: full)?.count ?? -1)")
            }
        }
        visit(path, "")
        return out
    }
}

/// Whether a process is alive (a zombie nobody reaped yet counts as gone).
func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let close = stat.lastIndex(of: ")") else { return true }
    return !stat[close...].hasPrefix(") Z")
}

/// A process id that no longer runs (a `true` that has exited).
func deadPID() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// A private mount namespace held open by a sleeping process: mounts made in it (a small
/// tmpfs, a read-only bind mount) vanish with it, whatever happens to the test. Commands run
/// in it through `nsenter`; its files are seen from outside under `/proc/PID/root`.
///
/// Needs root or unprivileged user namespaces; `start()` returns nil (with a visible note)
/// where neither is allowed.
final class MountNamespace {
    private let holder: Process
    private let user: Bool

    private init(holder: Process, user: Bool) {
        self.holder = holder
        self.user = user
    }

    static func start() -> MountNamespace? {
        for user in geteuid() == 0 ? [false, true] : [true] {
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            holder.arguments = (user ? ["-r"] : []) + ["-m", "--propagation", "private", "sleep", "300"]
            holder.standardError = FileHandle.nullDevice
            guard (try? holder.run()) != nil else { continue }
            let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/mnt")
            let deadline = Date().addingTimeInterval(5)
            while holder.isRunning && Date() < deadline {
                let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(holder.processIdentifier)/ns/mnt")
                if let theirs, theirs != ours { return MountNamespace(holder: holder, user: user) }
                usleep(10_000)
            }
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
        }
        print("note: skipping: this machine permits no private mount namespace (unshare -m, unshare -rm), so no tmpfs or read-only mount can be made")
        return nil
    }

    /// Runs `arguments` inside the namespace (absolute paths: entering it resets the working
    /// directory to /), with `environment` added.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let entering = ["-t", "\(holder.processIdentifier)", "-m"] + (user ? ["-U", "--preserve-credentials"] : []) + ["--"]
        let result = try TestPaths.run(program: URL(fileURLWithPath: "/usr/bin/nsenter"), entering + arguments, environment: environment)
        return (result.status, result.stdout + result.stderr)
    }

    /// `path` as seen from outside the namespace.
    func outside(_ path: String) -> String { "/proc/\(holder.processIdentifier)/root" + path }

    /// Ends the namespace (SIGKILL: a process started from a test thread may have SIGTERM blocked).
    func stop() {
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
    }
}

/// A small pipeline of shell-script stages in a temporary directory, run through the
/// `pipeline` executable (or the library).
struct ScriptPipeline {
    let root: String
    var file: String { root + "/p.yaml" }
    var bin: String { root + "/bin" }
    var output: String { root + "/out" }

    init(yaml: String, tools: [String: String]) throws {
        root = try TestPaths.temporaryDirectory("script-pipeline").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try yaml.replacingOccurrences(of: "ROOT", with: root).write(toFile: file, atomically: true, encoding: .utf8)
        for (name, script) in tools { try setTool(name, script) }
    }

    /// Writes the tool `name` (a shell script; `ROOT` in it is this directory).
    func setTool(_ name: String, _ script: String) throws {
        try ("#!/bin/sh\n" + script.replacingOccurrences(of: "ROOT", with: root)).write(toFile: bin + "/" + name, atomically: true, encoding: .utf8)
        chmod(bin + "/" + name, 0o755)
    }

    func run(_ extra: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestPaths.run("pipeline", ["run", file, "--output", output, "--bin", bin, "--progress", "plain"] + extra)
    }

    func check() throws -> (status: Int32, stdout: String, stderr: String) {
        try TestPaths.run("pipeline", ["check", file])
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}
