import Foundation
import Testing
import TestSupport

/// emit-aircraft-index and the fieldguide index commands as a user meets them: what they
/// print and their exit status, on good and bad input.
@Suite("emit-aircraft-index and fieldguide search, type, match", .serialized)
struct AircraftIndexExecutableTests {
    /// A hand-off of input/faa without MASTER, and a scratch directory.
    static func handOff(_ label: String, overriding overrides: [String: Data] = [:]) throws -> (root: String, stage: String) {
        let root = try TestPaths.temporaryDirectory(label).path
        let sources = try FAAFixtures.inputCopy(overriding: overrides, removing: ["MASTER.txt"])
        let ingest = try TestPaths.run("ingest-faa", [sources, "--output", root + "/stage", "--master-optional"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("no MASTER in \(sources): reference data only, no registrations.csv"))
        return (root, root + "/stage")
    }

    @Test("without MASTER: the index, its manifest entry, the crosswalk skipped with a word")
    func referenceOnly() throws {
        let (root, stage) = try Self.handOff("index-cli")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try TestPaths.run("emit-aircraft-index", [stage, "--output", root, "--icao-types", "input/aircraft/icao-types.json",
                                                            "--modes", "input/aircraft/modes-registrations.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("read 20 models, 12 engines from \(stage), 12 designators from input/aircraft/icao-types.json"))
        #expect(run.stderr.contains("no registrations in \(stage) (no MASTER): no crosswalk"))
        #expect(FileManager.default.fileExists(atPath: root + "/aircraft-index.fgb"))
        #expect(!FileManager.default.fileExists(atPath: root + "/aircraft.fgb"))
        let search = try TestPaths.run("fieldguide", ["search", "skylark 2", "--bundle", root + "/aircraft-index.fgb", "--limit", "2"])
        #expect(search.status == 0)
        #expect(search.stdout.hasPrefix("1.000  model         AEROMARINE WORKS SKYLARK 2 (1000101)    exact name\n"), "\(search.stdout)")
    }

    @Test("a designator table or a Mode S table of the wrong shape or with a key twice, an empty ACFTREF: the file, what was found, exit 1")
    func badTables() throws {
        let (root, stage) = try Self.handOff("index-bad")
        defer { try? FileManager.default.removeItem(atPath: root) }
        func emit(_ extra: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try TestPaths.run("emit-aircraft-index", [stage, "--output", root] + extra)
        }
        // The Mode S table given as the ICAO types, and the other way round.
        let swappedTypes = try emit(["--icao-types", "input/aircraft/modes-registrations.json"])
        #expect(swappedTypes.status == 1)
        #expect(swappedTypes.stderr.contains("input/aircraft/modes-registrations.json:1:2: expected ICAO type designators, found a Mode S address table (A00001 → [\"N100A\", \"AMSK\", \"00\"])"), "\(swappedTypes.stderr)")
        let swappedModes = try emit(["--modes", "input/aircraft/icao-types.json"])
        #expect(swappedModes.status == 1)
        #expect(swappedModes.stderr.contains("input/aircraft/icao-types.json:1:2: not a Mode S table; pass it as the ICAO type table (--icao-types) (expected Mode S addresses"), "\(swappedModes.stderr)")
        #expect(swappedModes.stderr.contains("found an ICAO type designator table (AMSK → [\"AEROMARINE Skylark 2\", \"L1P\", \"L\"])"))
        // Shapes no table has.
        let table = root + "/table.json"
        let cases: [(String, String, String)] = [
            (#"{"B738": "BOEING 737-800"}"#, "--icao-types", "table.json:1:10: B738: not a table of ICAO type designators (expected an array of strings; found a string)"),
            (#"[["B738"]]"#, "--modes", "table.json:1:1: not a table of Mode S addresses (expected an object {\"key\": [strings]} of Mode S addresses; found an array)"),
            (#"{"A1B2C3": ["N250JT", "C25A"],\#n "XYZ": ["N1", "B738", "00"]}"#, "--modes", "table.json:2:2: not a Mode S table: a key is six hex digits"),
            (#"{"A1B2C3": ["N250JT", "boeing", "00"]}"#, "--modes", "the second value is a type designator"),
            (#"{"A1B2C3": ["N250JT", "C25A", "00"]"#, "--modes", "table.json:1:36: not a table of Mode S addresses (expected ',' or '}' after the entry A1B2C3; found the end of the file)"),
            (#"{"A1B2C3": ["N250JT", "C25A", "00"],\#n "a1b2c3": ["N250JT", "B738", "00"]}"#, "--modes",
             "table.json:2:2: a Mode S address listed twice (expected each address once; found a1b2c3 listed before)"),
            (#"{"A00001": ["N1", "", "00"], "A00001": ["N1", "", "00"]}"#, "--modes", "table.json:1:30: a Mode S address listed twice"),
            (#"{"C172": ["CESSNA 172", "L1P", "L"],\#n"B738": ["BOEING 737-800", "L2J", "M"],\#n"C172": ["CESSNA 172S", "L1P", "L"]}"#, "--icao-types",
             "table.json:3:1: a type designator listed twice (expected each designator once; found C172 on line 1 too)"),
            ("{}", "--modes", "table.json: no Mode S addresses (expected {\"A1B2C3\": [registration, type designator, flags]}; found an empty table)"),
        ]
        for (content, option, message) in cases {
            try Data(content.utf8).write(to: URL(fileURLWithPath: table))
            let run = try emit([option, table])
            #expect(run.status == 1, "\(content): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(content): \(run.stderr)")
            for dump in ["DecodingError", "NSCocoaErrorDomain", "Context("] { #expect(!run.stderr.contains(dump)) }
        }
        #expect(try emit(["--modes", "/nonexistent/modes.json"]).status == 2)
        let folder = try emit(["--icao-types", "input/aircraft"])   // was "input/aircraft: failed"
        #expect(folder.status == 2 && folder.stderr.contains("input/aircraft: not a file to read (expected an ICAO type table; found a directory)"), "\(folder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/aircraft-index.fgb"))
    }

    @Test("an ACFTREF with a header and no rows: no index, the file named with what was read, exit 1")
    func emptyReference() throws {
        let header = try FAAFixtures.lines("ACFTREF.txt")[0]
        let (root, stage) = try Self.handOff("index-empty", overriding: ["ACFTREF.txt": Data.faaFile([header])])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try TestPaths.run("emit-aircraft-index", [stage, "--output", root])
        #expect(run.status == 1)
        #expect(run.stderr == "emit-aircraft-index: error: ACFTREF.txt: no aircraft models to index (expected aircraft models; found 0 rows read, 0 kept)\n", "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/aircraft-index.fgb"))
    }

    @Test("fieldguide search, type and match: usage errors exit 2, an unknown designator 1 with the closest ones")
    func queries() throws {
        let (root, stage) = try Self.handOff("index-queries")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let index = root + "/aircraft-index.fgb"
        #expect(try TestPaths.run("emit-aircraft-index", [stage, "--output", root, "--icao-types", "input/aircraft/icao-types.json"]).status == 0)
        for text in ["", "!!", "  -  "] {
            let run = try TestPaths.run("fieldguide", ["search", text, "--bundle", index])
            #expect(run.status == 2, "\(text)")
            #expect(run.stderr.contains("fieldguide: error: query: nothing to search for (expected letters or digits; found \"\(text)\")"), "\(run.stderr)")
        }
        let kind = try TestPaths.run("fieldguide", ["search", "bh", "--kind", "plane", "--bundle", index])
        #expect(kind.status == 2 && kind.stderr.contains("--kind: expected type, model or manufacturer, found plane"))
        let json = try TestPaths.run("fieldguide", ["search", "Blueheron BH-900 jet", "--bundle", index, "--format", "json"])
        #expect(json.status == 0 && json.stdout.contains("\"code\" : \"2100200\""))
        let type = try TestPaths.run("fieldguide", ["type", "bh90", "--bundle", index])
        #expect(type.status == 0 && type.stdout.contains("Description  L2J (landplane, 2 engines, jet)"))
        let unknown = try TestPaths.run("fieldguide", ["type", "BH99", "--bundle", index])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no designator BH99 in \(index); closest: BH90 (BLUEHERON BH-900 Jet)"), "\(unknown.stderr)")
        let both = try TestPaths.run("fieldguide", ["match", "--captures", "x.csv", "--model", "172S", "--bundle", index])
        #expect(both.status == 2 && both.stderr.contains("--captures takes no --designator, --manufacturer or --model"))
        #expect(try TestPaths.run("fieldguide", ["match", "--bundle", index]).status == 2)
        let missing = try TestPaths.run("fieldguide", ["search", "bh", "--bundle", root + "/none.fgb"])
        #expect(missing.status == 2 && missing.stderr.contains("none.fgb: cannot read artifact"))
    }

    @Test("match --captures: one CSV row per capture, through libcsv; a file that is not a capture export exits 1")
    func batch() throws {
        let (root, stage) = try Self.handOff("index-batch")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let index = root + "/aircraft-index.fgb"
        #expect(try TestPaths.run("emit-aircraft-index", [stage, "--output", root, "--icao-types", "input/aircraft/icao-types.json"]).status == 0)
        let run = try TestPaths.run("fieldguide", ["match", "--captures", "input/exports/captures/AirplaneID-captures.csv", "--bundle", index])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n")
        #expect(rows.count == 4)
        #expect(rows[0] == "line,icao,manufacturer,model,registration,type,type_name,rank1_code,rank1_manufacturer,rank1_model,rank1_score,candidates,closest_designators")
        #expect(rows[1].hasPrefix("2,C25A,Blueheron,BH-900 Jet,N250JT,found,CESSNA 525A CitationJet 2,2100200,BLUEHERON AIRCRAFT CO,BH-900 JET,"), "\(rows[1])")
        #expect(run.stderr.contains("matched 3 captures from input/exports/captures/AirplaneID-captures.csv"))
        let out = root + "/matches.csv"
        #expect(try TestPaths.run("fieldguide", ["match", "--captures", "input/exports/captures/AirplaneID-captures.csv", "--bundle", index, "-o", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == run.stdout)
        let ebird = try TestPaths.run("fieldguide", ["match", "--captures", "input/exports/ebird/MyEBirdData.csv", "--bundle", index])
        #expect(ebird.status == 1)
        #expect(ebird.stderr.contains("input/exports/ebird/MyEBirdData.csv:1:1: not a capture export (expected an aircraft capture header (icao, manufacturer, model, …)"), "\(ebird.stderr)")
        let twice = root + "/twice.csv"   // "Model" read as the model before: the first of the two
        try Data("icao,manufacturer,model,registration,Model\nC172,Cessna,172S,N1,Skyhawk\n".utf8).write(to: URL(fileURLWithPath: twice))
        let repeated = try TestPaths.run("fieldguide", ["match", "--captures", twice, "--bundle", index])
        #expect(repeated.status == 1)
        #expect(repeated.stderr.contains("twice.csv:1: a column named twice (expected each column once; found Model as fields 3 and 5)"), "\(repeated.stderr)")
        if let real = TestPaths.shared("aircraft/airplane-id/AirplaneID-TestData.csv") {
            let all = try TestPaths.run("fieldguide", ["match", "--captures", real.path, "--bundle", index])
            #expect(all.status == 0 && all.stdout.split(separator: "\n").count == 2_001)
        }
    }
}
