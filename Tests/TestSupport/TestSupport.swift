import Foundation

/// Paths and helpers shared by the test targets.
public enum TestPaths {
    /// The package root (the directory holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `../shared/data` beside the project root, where the real public data lives.
    public static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// The project's own embedded default data.
    public static let input = packageRoot.appendingPathComponent("input")

    /// A file under `../shared/data`, or nil (with a visible note) when shared/ is absent.
    public static func shared(_ relative: String) -> URL? {
        let url = sharedData.appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("note: skipping: ../shared/data/\(relative) is not present beside the project")
        return nil
    }

    /// A built executable of this package: looked up in `FIELDGUIDE_BIN_DIR` when set, then in
    /// the build directory of the running test binary (so `--scratch-path` builds work), then
    /// in `.build/debug`.
    public static func executable(_ name: String) -> URL {
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["FIELDGUIDE_BIN_DIR"] { candidates.append(URL(fileURLWithPath: dir)) }
        // The test binary lives in <build>/debug (Linux) or <build>/debug/X.xctest/Contents/MacOS (macOS).
        for start in [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), Bundle.main.executableURL, Bundle.main.bundleURL] {
            guard var url = start else { continue }
            for _ in 0..<5 {
                url.deleteLastPathComponent()
                candidates.append(url)
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let binary = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Runs a built executable of this package from the package root (or from `directory`,
    /// for relative paths as a user types them) and captures its exit status and output.
    public static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws
        -> (status: Int32, stdout: String, stderr: String) {
        try run(program: TestPaths.executable(executable), arguments, in: directory)
    }

    /// Runs any program from the package root (or from `directory`), with `environment` added
    /// to this process's, and captures its exit status and output.
    public static func run(program: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// Creates an empty file whose name is `bytes` (not necessarily UTF-8) in `directory`;
    /// returns a function that removes it (Foundation may not find the name to remove).
    public static func createFile(named bytes: [UInt8], in directory: URL) throws -> () -> Void {
        let path = (Array(directory.path.utf8) + [UInt8(ascii: "/")] + bytes + [0]).map { CChar(bitPattern: $0) }
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        close(fd)
        return { _ = unlink(path) }
    }

    /// A fresh temporary directory under the test process's scratch root (`scratchRoot`), which
    /// goes when the process exits.
    public static func temporaryDirectory(_ label: String = "fieldguide") throws -> URL {
        let url = scratchRoot.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One directory per test process holding every `temporaryDirectory`, removed at exit.
    ///
    /// Why: tests write artifacts, stage outputs and FAA files (a suite run leaves about a
    /// gigabyte), and few tests can remove what they made when an expectation fails halfway.
    /// Set `FIELDGUIDE_KEEP_TEST_FILES=1` to keep the files of a run for a look afterwards.
    public static let scratchRoot: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("fieldguide-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["FIELDGUIDE_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(at: TestPaths.scratchRoot) }
        } else {
            print("FIELDGUIDE_KEEP_TEST_FILES: this run's test files stay in \(root.path)")
        }
        return root
    }()
}

extension Data {
    /// The bytes of a string as written by the FAA: UTF-8 with BOM, CRLF line ends.
    public static func faaFile(_ lines: [String]) -> Data {
        var data = Data([0xEF, 0xBB, 0xBF])
        for line in lines { data.append(contentsOf: Array((line + "\r\n").utf8)) }
        return data
    }
}

/// Builds FAA source directories for tests: the project's fixtures, the real files under
/// `../shared`, or files written from lines.
public enum FAAFixtures {
    /// `input/faa`, the project's embedded default data.
    public static var inputDirectory: String { TestPaths.input.appendingPathComponent("faa").path }

    /// A directory holding the real shared files under their FAA names, or nil when absent.
    public static func sharedDirectory() throws -> String? {
        guard let reference = TestPaths.shared("faa/ACFTREF.sample.txt"),
              let engine = TestPaths.shared("faa/ENGINE.txt"),
              let master = TestPaths.shared("faa/MASTER.sample.txt") else { return nil }
        let directory = try TestPaths.temporaryDirectory("faa-shared")
        for (name, url) in [("ACFTREF.txt", reference), ("ENGINE.txt", engine), ("MASTER.txt", master)] {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(name), withDestinationURL: url)
        }
        return directory.path
    }

    /// A copy of `input/faa` with some files replaced by `overrides` (name → bytes).
    public static func inputCopy(overriding overrides: [String: Data] = [:], removing: [String] = []) throws -> String {
        let directory = try TestPaths.temporaryDirectory("faa-input")
        for name in ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt"] where !removing.contains(name) {
            let data = try overrides[name] ?? Data(contentsOf: URL(fileURLWithPath: inputDirectory + "/" + name))
            try data.write(to: directory.appendingPathComponent(name))
        }
        for (name, data) in overrides where !["ACFTREF.txt", "ENGINE.txt", "MASTER.txt"].contains(name) {
            try data.write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    /// The lines of a fixture file without BOM and CRLF.
    public static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: inputDirectory + "/" + name, encoding: .utf8)
        return text.replacingOccurrences(of: "\u{FEFF}", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }
}
