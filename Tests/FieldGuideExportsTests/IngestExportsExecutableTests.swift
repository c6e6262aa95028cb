import Foundation
import Testing
import TestSupport

@Suite("ingest-exports executable", .serialized)
struct IngestExportsExecutableTests {
    @Test("exit 0 over input/exports; 1 when a file fails (located, others imported); 2 on usage or I/O")
    func exitCodes() throws {
        let out = try TestPaths.temporaryDirectory("exports-cli").path
        let ok = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", "Tests/Fixtures/aircraft/icao-types.json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.contains("input/exports/gpx/lake-walk.gpx: gpx: 5 records → 5 other, 0 rejected, 0 warnings"))
        #expect(ok.stderr.contains("input/exports/xmp/DSC_2207.NEF.xmp: xmp: 1 record → 2 aircraft,"), "\(ok.stderr)")
        #expect(ok.stderr.contains("no names index loaded") == false)   // a count line, not a reason dump
        #expect(FileManager.default.fileExists(atPath: out + "/observations.csv"))

        let failed = try TestPaths.run("ingest-exports", ["input/exports/gpx", "Tests/Fixtures/exports/mismatched-tag.gpx", "--output", out])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Tests/Fixtures/exports/mismatched-tag.gpx:5:9: Opening and ending tag mismatch"))
        #expect(failed.stderr.contains("lake-walk.gpx: gpx: 5 records"))

        #expect(try TestPaths.run("ingest-exports", ["--help"]).status == 0)
        #expect(try TestPaths.run("ingest-exports", ["--output", out]).status == 2)
        #expect(try TestPaths.run("ingest-exports", ["/nonexistent", "--output", out]).status == 2)
        // An eBird export naming Latitude twice (the first was read): the file refused, the others imported.
        let header = try String(contentsOfFile: "input/exports/ebird/MyEBirdData.csv", encoding: .utf8)
        try FileManager.default.createDirectory(atPath: out + "/twice-in", withIntermediateDirectories: true)
        try header.replacingOccurrences(of: "ML Catalog Numbers", with: "latitude")
            .write(toFile: out + "/twice-in/MyEBirdData.csv", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: "input/exports/gpx", toPath: out + "/twice-in/gpx")
        let twice = try TestPaths.run("ingest-exports", [out + "/twice-in", "--output", out + "/twice"])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("MyEBirdData.csv:1: a column named twice (expected each column once; found latitude as fields 10 and 23)"), "\(twice.stderr)")
        #expect(try String(contentsOfFile: out + "/twice/observations.csv", encoding: .utf8).contains(",gpx,"))
        let device = try TestPaths.run("ingest-exports", ["input/exports", "/dev/zero", "--output", out + "/device"])   // hashed for ever before
        #expect(device.status == 2 && device.stderr.contains("/dev/zero: not a file to read (expected an export file or a directory of them; found a device, pipe or socket)"), "\(device.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/device"))
        #expect(try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--aircraft", "/nonexistent.fgb"]).status == 2)
    }

    @Test("a directory given as a link, or holding links, reads like the directory: the same observations, each file once")
    func linkedDirectories() throws {
        let directory = try TestPaths.temporaryDirectory("exports-links")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fm = FileManager.default
        let linked = directory.appendingPathComponent("exports")
        try fm.createSymbolicLink(atPath: linked.path, withDestinationPath: fm.currentDirectoryPath + "/input/exports")
        let direct = try TestPaths.run("ingest-exports", ["input/exports", "--output", directory.path + "/direct"])
        let viaLink = try TestPaths.run("ingest-exports", [linked.path, "--output", directory.path + "/link"])
        #expect(direct.status == 0 && viaLink.status == 0, "\(viaLink.stderr)")
        #expect(viaLink.stderr.contains(linked.path + "/gpx/lake-walk.gpx: gpx: 5 records"), "\(viaLink.stderr)")
        let observations = { (run: String) in try String(contentsOfFile: directory.path + "/" + run + "/observations.csv", encoding: .utf8) }
        let directRows = try observations("direct").split(separator: "\n")
        #expect(directRows.count > 20)
        #expect(try observations("link").split(separator: "\n").count == directRows.count)

        // A tree with a link back up and a second link to a directory already read: read once.
        let tree = directory.appendingPathComponent("tree")
        try fm.createDirectory(at: tree, withIntermediateDirectories: true)
        try fm.copyItem(at: TestPaths.input.appendingPathComponent("exports/gpx"), to: tree.appendingPathComponent("gpx"))
        try fm.createSymbolicLink(atPath: tree.path + "/gpx/loop", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: tree.path + "/more-gpx", withDestinationPath: "gpx")
        let looped = try TestPaths.run("ingest-exports", [tree.path, "--output", directory.path + "/tree-out"])
        #expect(looped.status == 0, "\(looped.stderr)")
        let report = try String(contentsOfFile: directory.path + "/tree-out/exports-ingest.json", encoding: .utf8)
        #expect(report.contains("\"files\" : 1,"), "\(report)")
    }

    @Test("--icao-types refuses a table of another shape, naming what it found (the real Mode S table, a short entry)")
    func icaoTypesOfTheWrongKind() throws {
        let out = try TestPaths.temporaryDirectory("exports-icao").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        if let modes = TestPaths.shared("aircraft/modes-registrations.json") {
            let run = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", modes.path])
            #expect(run.status == 2)
            #expect(run.stderr.contains("expected ICAO type designators, found a Mode S address table (004002 → [\"Z-WPA\", \"B732\", \"00\"])"))
            #expect(!run.stderr.contains("designators\n"))   // never "446,783 designators"
        }
        let short = out + "/short.json"
        try Data(#"{"B738": ["BOEING 737-800", "L2J"]}"#.utf8).write(to: URL(fileURLWithPath: short))
        let run = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", short])
        #expect(run.status == 2)
        #expect(run.stderr.contains("found B738 → [\"BOEING 737-800\", \"L2J\"]: 2 values, not 3"))
        let empty = out + "/empty.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: empty))
        #expect(try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", empty]).stderr.contains("found an empty table"))
        if let real = TestPaths.shared("aircraft/icao-types.json") {
            let ok = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", real.path])
            #expect(ok.status == 0 && ok.stderr.contains("2,788 designators"), "\(ok.stderr)")
        }
    }

    @Test("a missing or broken --icao-types file: the path once, in plain words, exit 2; never a Foundation dump")
    func icaoTypesErrors() throws {
        let out = try TestPaths.temporaryDirectory("exports-cli-icao").path
        let missing = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", "/nonexistent/icao.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "ingest-exports: error: /nonexistent/icao.json: No such file or directory\n")

        let table = out + "/icao.json"
        try Data(#"{"B738": "Boeing 737-800"}"#.utf8).write(to: URL(fileURLWithPath: table))
        let wrongType = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", table])
        #expect(wrongType.status == 2)
        #expect(wrongType.stderr.hasPrefix("ingest-exports: error: \(table):1:10: B738: not a table of ICAO type designators"), "\(wrongType.stderr)")
        #expect(wrongType.stderr.contains("found a string"))

        try Data("[1,".utf8).write(to: URL(fileURLWithPath: table))
        let notJSON = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", table])
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.hasPrefix("ingest-exports: error: \(table):1:1: not a table of ICAO type designators"), "\(notJSON.stderr)")
        #expect(notJSON.stderr.contains("found an array"))
        for result in [missing, wrongType, notJSON] {
            for dump in ["NSCocoaErrorDomain", "DecodingError", "Debug description", "Context(codingPath", "UserInfo="] {
                #expect(!result.stderr.contains(dump), "\(result.stderr)")
            }
            #expect(result.stderr.components(separatedBy: "/icao.json").count == 2, "the path once: \(result.stderr)")
        }
    }

    @Test("a control character in an eBird export's values or a binary plist's strings: U+FFFD, a warning at file:line and field, the observation kept; none reaches observations.csv")
    func controlCharacters() throws {
        let directory = try TestPaths.temporaryDirectory("exports-control")
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var ebird = try String(contentsOfFile: "input/exports/ebird/MyEBirdData.csv", encoding: .utf8)
        ebird = ebird.replacingOccurrences(of: ",Grey Heron,", with: ",Grey\u{1B}[2JHeron,")
            .replacingOccurrences(of: "Fishing at the reeds", with: "Fishing\u{7} at the reeds\u{7F}")
        try ebird.write(to: inputs.appendingPathComponent("MyEBirdData.csv"), atomically: true, encoding: .utf8)
        // XML cannot hold a control character; a binary property list can.
        var dex = try #require(try PropertyListSerialization.propertyList(
            from: Data(contentsOf: URL(fileURLWithPath: "input/exports/plist/nature-dex.plist")), format: nil) as? [[String: Any]])
        dex[0]["name"] = "Great\u{0}Crested Grebe"
        try PropertyListSerialization.data(fromPropertyList: dex, format: .binary, options: 0).write(to: inputs.appendingPathComponent("dex.plist"))

        let out = directory.path + "/out"
        let run = try TestPaths.run("ingest-exports", [inputs.path, "--output", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("MyEBirdData.csv: ebird: 6 records → 6 bird, 0 rejected, 2 warnings"), "\(run.stderr)")
        #expect(run.stderr.contains("dex.plist: plist:") && run.stderr.contains("0 rejected, 1 warning"), "\(run.stderr)")
        let rejects = try String(contentsOfFile: out + "/exports-rejects.csv", encoding: .utf8)
        let ebirdFile = inputs.path + "/MyEBirdData.csv", dexFile = inputs.path + "/dex.plist"
        for row in ["warning,\(ebirdFile),2,subject,Grey\u{FFFD}[2JHeron,\"expected text, found the control character U+001B; replaced with U+FFFD\"",
                    "warning,\(ebirdFile),2,notes,\"Fishing\u{FFFD} at the reeds\u{FFFD}, one adult\",\"expected text, found the control character U+0007; replaced with U+FFFD\"",
                    "warning,\(dexFile),1,subject,Great\u{FFFD}Crested Grebe,\"expected text, found the control character U+0000; replaced with U+FFFD\""] {
            #expect(rejects.contains(row), "\(row)\n\(rejects)")
        }
        let observations = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/observations.csv")))
        #expect(!observations.contains { ($0 < 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09) || $0 == 0x7F })
        let text = String(decoding: observations, as: UTF8.self)
        #expect(text.contains("Grey\u{FFFD}[2JHeron") && text.contains("Great\u{FFFD}Crested Grebe") && text.contains("Fishing\u{FFFD} at the reeds\u{FFFD}, one adult"))
    }

    @Test("rejects are written as found: a file's rejected rows past the 1 MiB flush are dropped when the file then fails; another file's kept, in order")
    func rejectsOfAFailedFile() throws {
        let directory = try TestPaths.temporaryDirectory("exports-rejects")
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        func point(_ i: Int, lat: String) -> String { "<trkpt lat=\"\(lat)\" lon=\"1\"><name>P\(i)</name></trkpt>\n" }
        let head = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        // a.gpx: one point off the globe among good ones; b.gpx: 20,000 of them (about 1.9 MB of
        // reject rows), then cut short.
        try (head + point(1, lat: "95") + point(2, lat: "52") + "</trkseg></trk></gpx>\n").write(to: inputs.appendingPathComponent("a.gpx"), atomically: true, encoding: .utf8)
        try (head + (1...20_000).map { point($0, lat: "95") }.joined()).write(to: inputs.appendingPathComponent("b.gpx"), atomically: true, encoding: .utf8)
        let run = try TestPaths.run("ingest-exports", [inputs.path, "--output", directory.path + "/out"])
        #expect(run.status == 1, "\(run.stderr)")
        let rejects = try String(contentsOfFile: directory.path + "/out/exports-rejects.csv", encoding: .utf8).split(separator: "\n")
        #expect(rejects.count == 3, "\(rejects.prefix(5))")
        #expect(rejects.first == "severity,file,line,field,value,reason")
        #expect(rejects.dropFirst().first?.hasPrefix("rejected,\(inputs.path)/a.gpx,3,lat,95,latitude out of range") == true, "\(rejects.prefix(3))")
        #expect(rejects.last?.hasPrefix("rejected,\(inputs.path)/b.gpx,") == true && rejects.last?.contains(",(file),") == true, "\(rejects.last ?? "")")
        let report = try String(contentsOfFile: directory.path + "/out/exports-ingest.json", encoding: .utf8)
        #expect(report.contains("\"errors\" : 2"), "\(report)")
        // No spool left beside the outputs.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/out").filter { $0.hasPrefix(".") }.isEmpty)
    }
}
