import Foundation
import Testing
import TestSupport

/// Ordinary mistakes get an answer that names what is wrong, with the documented exit status.
@Suite("Mistakes named: missing rules file, a directory as an artifact, an unwritable output, a blank code or designator")
struct UserMistakeMessagesTests {
    @Test("watchlist --rules with a file that is not there: the file named, exit 2 (not 'expected JSON')")
    func missingRulesFile() throws {
        let run = try TestPaths.run("fieldguide", ["watchlist", "--rules", "no-such-rules.json", "--bundle", "input/birds"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no-such-rules.json: No such file or directory"), "\(run.stderr)")
        #expect(!run.stderr.contains("expected JSON"))
        // A directory said "input: failed", a device "Permission denied"; a large file was read whole.
        let directory = try TestPaths.temporaryDirectory("rules-bounds")
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("rules.json")
        try Data(("[" + String(repeating: " ", count: 1 << 20) + "]").utf8).write(to: big)
        for (rules, status, message) in [("input", Int32(2), "input: not a file to read (expected a rules file; found a directory)"),
                                         ("/dev/zero", 2, "/dev/zero: not a file to read (expected a rules file; found not a regular file)"),
                                         (big.path, 1, "rules.json: expected a rules file of at most 1 MiB, found 1.1 MiB; refused before reading it")] {
            let run = try TestPaths.run("fieldguide", ["watchlist", "--rules", rules, "--bundle", "no-such.fgb"])
            #expect(run.status == status && run.stderr.contains(message) && !run.stderr.contains("no-such.fgb"), "\(rules): \(run.stderr)")
        }
    }

    @Test("inspect or query a directory: 'is a directory', exit 2 (not 'mmap failed: No such device')")
    func directoryAsArtifact() throws {
        let run = try TestPaths.run("fieldguide", ["inspect", "input"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("input: cannot read artifact: is a directory"), "\(run.stderr)")
        #expect(!run.stderr.contains("mmap"))
    }

    @Test("--bundle with a published build's folder reads the subcommand's artifact in it; a folder without one names the file looked for, exit 2")
    func folderAsBundle() throws {
        try RegistryCommandTests.withArtifact { file, directory in
            #expect(URL(fileURLWithPath: file).lastPathComponent == "aircraft.fgb")
            let byFile = try TestPaths.run("fieldguide", ["aircraft", "N2", "--bundle", file])
            let byFolder = try TestPaths.run("fieldguide", ["aircraft", "N2", "--bundle", directory.path])
            #expect(byFolder.status == 0 && byFolder.stdout == byFile.stdout && byFolder.stdout.contains("N-number            N2"), "\(byFolder.stderr)")
            // inspect without an argument reads the same file; history looks beside it for history.fgb.
            let inspect = try TestPaths.run("fieldguide", ["inspect", "--bundle", directory.path])
            #expect(inspect.status == 0 && inspect.stdout.hasPrefix("\(directory.path)/aircraft.fgb: ACFT artifact"), "\(inspect.stdout)\(inspect.stderr)")
            let history = try TestPaths.run("fieldguide", ["history", "N2", "--bundle", directory.path])
            #expect(history.status == 0 && history.stdout.contains("no \(directory.path)/history.fgb"), "\(history.stdout)\(history.stderr)")
            let stage = directory.appendingPathComponent("stage").path
            let missing = try TestPaths.run("fieldguide", ["aircraft", "N2", "--bundle", stage])
            #expect(missing.status == 2 && missing.stderr.contains("\(stage)/aircraft.fgb: cannot read artifact: No such file or directory"), "\(missing.stderr)")
            let index = try TestPaths.run("fieldguide", ["search", "cessna", "--bundle", stage])
            #expect(index.status == 2 && index.stderr.contains("\(stage)/aircraft-index.fgb"), "\(index.stderr)")
            let birds = try TestPaths.run("fieldguide", ["species", "--region", "Urban", "--month", "5", "--bundle", stage])
            #expect(birds.status == 2 && birds.stderr.contains("\(stage)/birds.fgb: cannot read artifact"), "\(birds.stderr)")
        }
    }

    @Test("--bundle with a file named with one letter, given relative: history looks beside it (it crashed in Foundation's path code)")
    func oneLetterBundle() throws {
        try RegistryCommandTests.withArtifact { file, directory in
            try FileManager.default.copyItem(atPath: file, toPath: directory.appendingPathComponent("a").path)
            let history = try TestPaths.run("fieldguide", ["history", "N2", "--bundle", "a"], in: directory)
            #expect(history.status == 0 && history.stdout.contains("no history.fgb"), "\(history.stdout)\(history.stderr)")
            let lookup = try TestPaths.run("fieldguide", ["aircraft", "N2", "--bundle", "a"], in: directory)
            #expect(lookup.status == 0 && lookup.stdout.contains("N-number            N2"), "\(lookup.stderr)")
        }
    }

    @Test("an empty path for an output, a state or a published build: a usage error naming the option, exit 2, nothing written (it meant the root directory)")
    func emptyPaths() throws {
        let directory = try TestPaths.temporaryDirectory("empty-paths")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = TestPaths.input.path
        let runs: [(String, [String], String)] = [
            ("ingest-birds", [input + "/birds", "--output", ""], "--output"),
            ("ingest-faa", [input + "/faa", "--output", ""], "--output"),
            ("ingest-exports", [input + "/exports", "--output", ""], "--output"),
            ("record-history", ["x", "--build", "b", "--output", "o", "--published", ""], "--published"),
            ("fetch-faa", ["http://127.0.0.1:9/", "--output", "o", "--state", ""], "--state"),
            ("pipeline", ["run", TestPaths.packageRoot.path + "/pipelines/nightly.yaml", "--output", ""], "--output"),
            ("pipeline", ["rollback", TestPaths.packageRoot.path + "/pipelines/nightly.yaml", "--output", ""], "--output"),
        ]
        for (executable, arguments, option) in runs {
            let run = try TestPaths.run(executable, arguments, in: directory)
            #expect(run.status == 2, "\(executable): \(run.stderr)")
            #expect(run.stderr.contains("\(option): expected a path, found an empty one"), "\(executable): \(run.stderr)")
        }
        let history = try TestPaths.run("record-history", ["x", "--build", "", "--output", "o"], in: directory)
        #expect(history.status == 2 && history.stderr.contains("--build: expected the build's name (its run id), found an empty one"), "\(history.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("an empty path for an input: a usage error naming the argument or option, exit 2 (it read /aircraft.fgb, or the error named no file)")
    func emptyInputPaths() throws {
        let directory = try TestPaths.temporaryDirectory("empty-input-paths")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = TestPaths.input.path
        let nightly = TestPaths.packageRoot.path + "/pipelines/nightly.yaml"
        let runs: [(String, [String], String)] = [
            ("validate", [""], "<paths>"),
            ("validate", [input + "/birds", "--taxonomy", ""], "--taxonomy"),
            ("ingest-birds", [input + "/birds", "", "--output", "o"], "<paths>"),
            ("ingest-birds", [input + "/birds", "--output", "o", "--seasons", ""], "--seasons"),
            ("ingest-faa", ["", "--output", "o"], "<sources>"),
            ("ingest-exports", ["", "--output", "o"], "<paths>"),
            ("ingest-exports", [input + "/exports", "--output", "o", "--aircraft", ""], "--aircraft"),
            ("emit-aircraft", ["", "--output", "o"], "<hand-off>"),
            ("emit-aircraft-index", ["x", "--output", "o", "--icao-types", ""], "--icao-types"),
            ("emit-birds", ["", "--output", "o"], "<hand-off>"),
            ("record-history", ["", "--build", "b", "--output", "o"], "<aircraft-directory>"),
            ("export-sqlite", ["", "--output", "o"], "<artifact-directory>"),
            ("aggregate-ebd", ["", "--output", "o"], "<inputs>"),
            ("pipeline", ["run", ""], "<file>"),
            ("pipeline", ["check", ""], "<file>"),
            ("pipeline", ["rollback", "", "--output", "o"], "<file>"),
            ("fieldguide", ["aircraft", "N1", "--bundle", ""], "--bundle"),
            ("fieldguide", ["search", "cessna", "--bundle", ""], "--bundle"),
            ("fieldguide", ["inspect", ""], "<artifact>"),
            ("fieldguide", ["diff", "", nightly], "<old>"),
            ("fieldguide", ["handoff", ""], "<directory>"),
            ("fieldguide", ["history", "N1", "--history", ""], "--history"),
            ("fieldguide", ["enrich", "--from", ""], "--from"),
            ("fieldguide", ["species", "--named", "robin", "--exclude", ""], "--exclude"),
        ]
        for (executable, arguments, option) in runs {
            let run = try TestPaths.run(executable, arguments, in: directory)
            #expect(run.status == 2, "\(executable) \(arguments): \(run.stderr)")
            #expect(run.stderr.contains("\(option): expected a path, found an empty one"), "\(executable) \(arguments): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("ingest-faa with an output it cannot create: exit 2 before reading any input, no report written")
    func unwritableOutput() throws {
        let directory = try TestPaths.temporaryDirectory("unwritable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let run = try TestPaths.run("ingest-faa", ["input/faa", "--output", file.path + "/stage"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot create the output directory: Not a directory (\(file.path) is a file)"), "\(run.stderr)")
        #expect(!run.stderr.contains("rows read"))
        // A stage writing its files straight away (no directory prepared first) says the same.
        let birds = try TestPaths.run("ingest-birds", ["input/birds", "--output", file.path + "/out"])
        #expect(birds.status == 2 && birds.stderr.contains("Not a directory (\(file.path) is a file)"), "\(birds.stderr)")
    }

    @Test("model or engine with a blank code: a usage error naming the argument, exit 2, before any artifact is opened")
    func blankCode() throws {
        for (command, expected) in [("model", "an ACFTREF code (0020901)"), ("engine", "an ENGINE code (17020)")] {
            for code in ["", "  "] {
                let run = try TestPaths.run("fieldguide", [command, code, "--bundle", "no-such.fgb"])
                #expect(run.status == 2, "\(run.stderr)")
                #expect(run.stderr.contains("<code>: expected \(expected), found \"\(code)\""), "\(run.stderr)")
                #expect(!run.stderr.contains("no-such.fgb") && !run.stderr.contains("in the bundle"), "\(run.stderr)")
            }
        }
    }

    @Test("type with a blank designator, sighting with a blank registration, aircraft or enrich with no US N-number, match with only blank fields, a --limit of 0: usage errors, exit 2, nothing opened")
    func blankLookups() throws {
        let cases: [([String], String)] = [
            (["type", " "], "<designator>: expected an ICAO type designator (B738), found \" \""),
            (["sighting", ""], "<registration>: expected a US N-number (N90, n90 or 90: N, a digit 1-9, "),
            (["aircraft", "ZZZ"], "<registration>: expected a US N-number (N90, n90 or 90: N, a digit 1-9, up to four more digits, then up to two letters (not I or O), at most five characters after the N), found ZZZ"),
            (["search", "cessna", "--limit", "0"], "--limit: expected 1 or more, found 0"),
            (["manufacturers", "a", "--limit", "0"], "--limit: expected 1 or more, found 0"),
            (["type", "C172", "--limit", "0"], "--limit: expected 1 or more, found 0"),
            (["match", "--model", "172", "--limit", "0"], "--limit: expected 1 or more, found 0"),
            (["enrich", "N0"], "<identifier>: expected an N-number (N250JT) or a Mode S address (A1B2C3), found N0"),
            (["match", "--manufacturer", " "], "expected --captures FILE, or --designator, --manufacturer or --model"),
            // A place or radius out of range named the query's field (lat, radiusKm), not the option.
            (["species", "--near", "91,0"], "--near: expected a latitude in −90…90, found 91.0"),
            (["observed", "--near", "10,-181"], "--near: expected a longitude in −180…180, found -181.0"),
            (["species", "--near", "10,10", "--radius", "inf"], "--radius: expected 0 < radiusKm ≤ 500, found inf"),
            (["observed", "--near", "10,10", "--radius", "0"], "--radius: expected 0 < radiusKm ≤ 500, found 0.0"),
        ]
        for (arguments, expected) in cases {
            let run = try TestPaths.run("fieldguide", arguments + ["--bundle", "no-such.fgb"])
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(expected) && !run.stderr.contains("no-such.fgb"), "\(arguments): \(run.stderr)")
        }
        let diff = try TestPaths.run("fieldguide", ["diff", "a.fgb", "b.fgb", "--limit=-1"])   // a negative list limit trapped
        #expect(diff.status == 2 && diff.stderr.contains("--limit: expected 0 or more, found -1"), "\(diff.stderr)")
    }
}

/// An argument echoed in a message comes back as written up to 80 characters: a pasted file
/// (ARG_MAX allows 128 KiB an argument) is not printed back whole.
@Suite("Long arguments: echoed shortened in every message")
struct LongArgumentEchoTests {
    static let long = "N1" + String(repeating: "9", count: 5000)

    @Test("usage errors and not-found answers echo a 5,000-character argument as its first 77 characters and '...'")
    func shortenedEchoes() throws {
        let shown = String(Self.long.prefix(77)) + "..."
        let usage: [([String], String)] = [
            (["aircraft", Self.long], "found \(shown)"),
            (["modes", Self.long], "found \(shown)"),
            (["enrich", Self.long], "found \(shown)"),
            (["species", "--near", Self.long], "--near: expected LAT,LON, found \(shown)"),
        ]
        for (arguments, message) in usage {
            let run = try TestPaths.run("fieldguide", arguments + ["--bundle", "no-such.fgb"])
            #expect(run.status == 2 && run.stderr.contains(message), "\(arguments[0]): \(run.stderr.prefix(300))")
            #expect(run.stderr.utf8.count < 2000, "\(arguments[0]): \(run.stderr.utf8.count) bytes of error")
        }
        let directory = try TestPaths.temporaryDirectory("long-arguments")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try TestPaths.run("ingest-faa", ["input/faa", "--output", directory.path + "/stage"]).status == 0)
        #expect(try TestPaths.run("emit-aircraft", [directory.path + "/stage", "--output", directory.path]).status == 0)
        let bundle = ["--bundle", directory.path + "/aircraft.fgb"]
        for (command, message, status) in [("model", "no model \(shown) in the bundle", Int32(1)),
                                           ("engine", "no engine \(shown) in the bundle", 1)] {
            let run = try TestPaths.run("fieldguide", [command, Self.long] + bundle)
            #expect(run.status == status && run.stderr.contains(message) && run.stderr.utf8.count < 2000, "\(command): \(run.stderr.prefix(300))")
        }
        // status answers every registration it is given, then names the first invalid one.
        let status = try TestPaths.run("fieldguide", ["status", Self.long] + bundle)
        #expect(status.status == 2 && status.stderr.contains("<registrations>: \(shown): not a US N-number"), "\(status.stderr.prefix(300))")
        #expect(status.stderr.utf8.count < 2000)
        let none = try TestPaths.run("fieldguide", ["manufacturers", Self.long] + bundle)
        #expect(none.status == 0 && none.stdout == "none: no manufacturer starts with \(shown)\n", "\(none.stdout.prefix(300))")
    }
}
