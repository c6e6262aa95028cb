import Foundation
import Testing
import TestSupport

@Suite("validate and ingest-birds executables", .serialized)
struct BirdExecutableTests {
    @Test("validate input/: exit 0, nothing on stdout")
    func clean() throws {
        let result = try TestPaths.run("validate", ["input"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("validate: checked 5 files"))
        #expect(result.stderr.contains("validate: 0 errors, 0 warnings"))
    }

    @Test("one file, one error: the counts agree with their nouns (checked 1 file, 1 error, 0 warnings), exit 1")
    func singular() throws {
        let directory = try TestPaths.temporaryDirectory("validate-one")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = try TestPaths.run("validate", ["input/birds/watchlists.json"])
        #expect(clean.status == 0 && clean.stderr.contains("validate: checked 1 file: input/birds/watchlists.json (watchlists)"), "\(clean.stderr)")
        let broken = directory.appendingPathComponent("watchlists.json").path
        try "[{\"id\": 1}".write(toFile: broken, atomically: true, encoding: .utf8)
        let result = try TestPaths.run("validate", [broken])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("validate: checked 1 file: "), "\(result.stderr)")
        #expect(result.stderr.contains("validate: error: 1 error, 0 warnings"), "\(result.stderr)")
    }

    @Test("validate over a directory given as a link checks what the directory holds (it read none, exit 2)")
    func linkedDirectory() throws {
        let directory = try TestPaths.temporaryDirectory("validate-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let linked = directory.appendingPathComponent("birds").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: FileManager.default.currentDirectoryPath + "/input/birds")
        let result = try TestPaths.run("validate", [linked])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("validate: checked 5 files: \(linked)/bird_database.json (database 3.0)"), "\(result.stderr)")
    }

    @Test("validate and ingest-birds over a directory named with one letter, given relative: read as any other (it crashed in Foundation's path code)")
    func oneLetterDirectory() throws {
        let directory = try TestPaths.temporaryDirectory("validate-one-letter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fm = FileManager.default
        // w holds a watchlist only, so the database is looked for in the directories above it.
        for (folder, files) in [("w", ["watchlists.json"]), ("b", ["bird_database.json", "watchlists.json", "home_data.json"])] {
            try fm.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            for name in files {
                try fm.copyItem(atPath: fm.currentDirectoryPath + "/input/birds/" + name, toPath: directory.appendingPathComponent("\(folder)/\(name)").path)
            }
        }
        let alone = try TestPaths.run("validate", ["w"], in: directory)
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stderr.contains("validate: checked 1 file: w/watchlists.json (watchlists)"), "\(alone.stderr)")
        #expect(alone.stdout.contains("w/watchlists.json:1:1: warning: no bird database among the inputs"), "\(alone.stdout)")
        let whole = try TestPaths.run("validate", ["b"], in: directory)
        #expect(whole.status == 0 && whole.stderr.contains("validate: checked 3 files: b/bird_database.json (database 3.0)"), "\(whole.stderr)")
        let noDatabase = try TestPaths.run("ingest-birds", ["w", "--output", "o"], in: directory)
        #expect(noDatabase.status == 2 && noDatabase.stderr.contains("ingest-birds: error: no bird database among w"), "\(noDatabase.stderr)")
        let ingest = try TestPaths.run("ingest-birds", ["b", "--output", "o"], in: directory)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(fm.fileExists(atPath: directory.appendingPathComponent("o/species.csv").path))
    }

    @Test("make birds (pipelines/birds) over links reads what they point to, as over the files; a loop of links does not stop it")
    func birdsOverLinks() throws {
        let directory = try TestPaths.temporaryDirectory("birds-links")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fm = FileManager.default
        let input = TestPaths.input.appendingPathComponent("birds").path
        // Every file and directory of input/birds as a link, the directory itself as a link, and a loop.
        let links = directory.appendingPathComponent("links").path
        try fm.createDirectory(atPath: links, withIntermediateDirectories: true)
        for name in try fm.contentsOfDirectory(atPath: input) {
            try fm.createSymbolicLink(atPath: links + "/" + name, withDestinationPath: input + "/" + name)
        }
        try fm.createSymbolicLink(atPath: links + "/again", withDestinationPath: ".")
        let linked = directory.appendingPathComponent("linked").path
        try fm.createSymbolicLink(atPath: linked, withDestinationPath: links)
        func run(_ source: String, _ output: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try TestPaths.run(program: URL(fileURLWithPath: "/bin/bash"), ["pipelines/birds", source, output],
                              environment: ["BIN": TestPaths.executable("ingest-birds").deletingLastPathComponent().path])
        }
        let direct = try run(input, directory.appendingPathComponent("direct").path)
        let viaLinks = try run(linked, directory.appendingPathComponent("via-links").path)
        #expect(direct.status == 0 && viaLinks.status == 0, "\(viaLinks.stderr)")
        let summary = "ingest-birds: read 1 bar chart (6 rows, 2 non-species, 1 unresolved), 3 seasons, 3 labels files; linked to 10 taxa with 43 names"
        #expect(direct.stderr.contains(summary), "\(direct.stderr)")
        #expect(viaLinks.stderr.contains(summary), "\(viaLinks.stderr)")
    }

    @Test("every problem in one run, in each format; exit 1")
    func formats() throws {
        let paths = ["Tests/Fixtures/birds/rules/ranges.json", "Tests/Fixtures/birds/broken"]
        let human = try TestPaths.run("validate", paths)
        #expect(human.status == 1)
        #expect(human.stdout == """
            Tests/Fixtures/birds/rules/ranges.json:120:30: error: Mallard: size_category 7 is outside 0–4
            Tests/Fixtures/birds/rules/ranges.json:166:17: error: Gray Heron: month 13 is outside 1–12
            Tests/Fixtures/birds/rules/ranges.json:167:17: error: Gray Heron: month 2 is listed twice
            Tests/Fixtures/birds/rules/ranges.json:189:30: error: Common Buzzard: size_category -1 is outside 0–4
            Tests/Fixtures/birds/broken/home_data.json:70:17: error: expected ',' or ']' after an array element, found '{'

            """)
        #expect(human.stderr.contains("validate: error: 5 errors, 0 warnings"))
        let github = try TestPaths.run("validate", paths + ["--format", "github"])
        #expect(github.status == 1)
        #expect(github.stdout.split(separator: "\n").last == "::error file=Tests/Fixtures/birds/broken/home_data.json,line=70,col=17,title=syntax::expected ',' or ']' after an array element, found '{'")
        let json = try TestPaths.run("validate", paths + ["--format", "json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(decoded?["errors"] as? Int == 5)
        #expect((decoded?["files"] as? [[String: Any]])?.count == 4)
    }

    @Test("--strict fails on warnings; exit codes for usage and missing paths")
    func strictAndUsage() throws {
        let vocabulary = "Tests/Fixtures/birds/rules/vocabulary.json"
        #expect(try TestPaths.run("validate", [vocabulary]).status == 0)
        let strict = try TestPaths.run("validate", [vocabulary, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("0 errors, 2 warnings (--strict: warnings fail)"))
        #expect(try TestPaths.run("validate", []).status == 2)
        #expect(try TestPaths.run("validate", ["input", "--format", "xml"]).status == 2)
        #expect(try TestPaths.run("validate", ["/nonexistent"]).status == 2)
        #expect(try TestPaths.run("validate", ["input", "--taxonomy", "/nonexistent.csv"]).status == 2)
        let help = try TestPaths.run("validate", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--strict"))
    }

    @Test("ingest-birds: exit 0 with counts and generation; 1 on errors; 2 on usage")
    func ingest() throws {
        let out = try TestPaths.temporaryDirectory("ingest-birds-cli").path
        let ok = try TestPaths.run("ingest-birds", ["input/birds", "--output", out])
        #expect(ok.status == 0)
        #expect(ok.stderr.contains("ingest-birds: input/birds/bird_database.json: database 3.0: 8 birds, 4 field marks, 6 shapes, 9 variants"))
        #expect(ok.stderr.contains("ingest-birds: read schema generation 3.0\n"))
        // input/'s shared watchlists file holds one list: the count agrees with it.
        #expect(ok.stderr.contains("ingest-birds: input/birds/sharedWatchlists.json: sharedWatchlists: 3 entries, 1 watchlist\n"), "\(ok.stderr)")
        #expect(ok.stderr.contains("home_data.json: homeData: 4 hotspot species entries, 2 hotspots, 2 migration sessions, 11 trajectory points"))
        #expect(FileManager.default.fileExists(atPath: out + "/species.csv"))
        let legacy = try TestPaths.run("ingest-birds", ["Tests/Fixtures/birds/generations/v2_1/bird_database.json", "--output", out + "/v21"])
        #expect(legacy.status == 0)
        #expect(legacy.stderr.contains("read schema generation 2.1, migrated to 3.0"))
        let failed = try TestPaths.run("ingest-birds", ["Tests/Fixtures/birds/rules/count.json", "--output", out + "/bad"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("count.json:4:26: error: metadata.total_species is 12 but the file lists 4 birds"))
        #expect(failed.stderr.contains("ingest-birds: error: 1 error in the seed files; wrote only"), "\(failed.stderr)")
        #expect(try TestPaths.run("ingest-birds", ["input/birds"]).status == 2)
        #expect(try TestPaths.run("ingest-birds", ["Tests/Fixtures/birds/generations", "--output", out]).status == 2)
    }
}
