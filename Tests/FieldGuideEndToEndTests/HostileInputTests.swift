import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// The MASTER.txt of `input/faa` with `change` applied to its bytes.
private func master(_ change: (inout [UInt8]) -> Void) throws -> Data {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt")))
    change(&bytes)
    return Data(bytes)
}

/// The offset just after the first CRLF (the start of line 2) plus `column`.
private func line2(_ bytes: [UInt8], column: Int = 0) -> Int {
    var i = 0
    while !(bytes[i] == 0x0D && bytes[i + 1] == 0x0A) { i += 1 }
    return i + 2 + column
}

private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

@Suite("Hostile input through the stage executables: bounds, encodings, exit statuses", .serialized)
struct HostileInputTests {
    @Test("an attribute bomb (one plist element, 200,000 attributes) is refused at its line in well under a second of parsing; the other files import")
    func attributeBomb() throws {
        let directory = try TestPaths.temporaryDirectory("attribute-bomb")
        defer { try? FileManager.default.removeItem(at: directory) }
        let attributes = (0..<200_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\" \(attributes)>\n<array/>\n</plist>\n"
            .write(to: directory.appendingPathComponent("bomb.plist"), atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out").path
        let start = ContinuousClock.now
        let run = try TestPaths.run("ingest-exports", [directory.path + "/bomb.plist", "input/exports/gpx", "--output", out])
        // Minutes before the bound (libxml2's attribute handling is quadratic); a generous ceiling.
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("bomb.plist:2:1: expected at most 1,000 attributes on one element, found more on <plist>; refused before parsing it"))
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
        let rejects = try text(out + "/exports-rejects.csv")
        #expect(rejects.contains("bomb.plist,2,(file),tooLarge,"))
        #expect(try text(out + "/exports-ingest.json").contains("\"failedFiles\" : 1"))
    }

    @Test("a MASTER.txt of one long line without a line break: refused at line 2 as it passes 64 KiB, exit 1, report rejected")
    func longLine() throws {
        let long = try master { bytes in
            bytes.removeSubrange(line2(bytes)...)
            bytes += [UInt8](repeating: UInt8(ascii: "A"), count: 4 << 20)
        }
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": long])
        let out = try TestPaths.temporaryDirectory("long-line").path
        let run = try TestPaths.run("ingest-faa", [sources, "--output", out])
        #expect(run.status == 1)
        #expect(run.stderr.contains("MASTER.txt:2: expected a record of at most 64 KiB, found a longer one"), "\(run.stderr)")
        let report = try JSONDecoder().decode(StageReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/faa-ingest.json")))
        #expect(report.status == .rejected && report.failure?.hasPrefix("MASTER.txt:2:") == true)
    }

    @Test("a Latin-1 byte in a MASTER name is read as Latin-1 (JONÉTHON), warned at file:line:field, counted, printed, and reaches the artifact as UTF-8")
    func latin1Name() throws {
        let changed = try master { bytes in
            let at = line2(bytes, column: 58)   // the NAME field of line 2: PETERSEN → JON\xC9THON
            bytes.replaceSubrange(at..<(at + 8), with: Array("JON".utf8) + [0xC9] + Array("THON".utf8))
        }
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": changed])
        let out = try TestPaths.temporaryDirectory("latin1").path
        let run = try TestPaths.run("ingest-faa", [sources, "--output", out + "/stage"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("MASTER.txt: 20 rows read, 20 kept, 0 rejected, 1 warning"))
        #expect(run.stderr.contains("1 field was not UTF-8 and read as Latin-1 (ISO-8859-1): warnings in faa-rejects.csv"))
        let rejects = try text(out + "/stage/faa-rejects.csv")
        #expect(rejects.contains("warning,MASTER.txt,2,NAME,"), "\(rejects)")
        #expect(rejects.contains("JONÉTHON") && rejects.contains("not valid UTF-8; read as Latin-1 (ISO-8859-1)"))
        let registrations = try text(out + "/stage/registrations.csv")
        #expect(registrations.contains("JONÉTHON") && !registrations.contains("\u{FFFD}"))
        let report = try JSONDecoder().decode(StageReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/stage/faa-ingest.json")))
        #expect(report.counts["fieldsReadAsLatin1"] == 1 && report.findings.warnings == 1)

        #expect(try TestPaths.run("emit-aircraft", [out + "/stage", "--output", out]).status == 0)
        #expect(try text(out + "/aircraft.rejects.csv") == rejects, "emit-aircraft publishes the ingest's rejects beside the artifact")
        let mark = String(decoding: [UInt8](changed)[line2([UInt8](changed))..<line2([UInt8](changed), column: 5)], as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        let aircraft = try TestPaths.run("fieldguide", ["aircraft", "N" + mark, "--bundle", out + "/aircraft.fgb"])
        #expect(aircraft.stdout.contains("JONÉTHON"), "\(aircraft.stdout)")
    }

    @Test("a NUL byte in an FAA file is data rejected (exit 1) at its line, read in one pass or in two halves")
    func nulByte() throws {
        let small = try master { bytes in bytes[line2(bytes, column: 10)] = 0 }
        let out = try TestPaths.temporaryDirectory("nul").path
        let one = try TestPaths.run("ingest-faa", [try FAAFixtures.inputCopy(overriding: ["MASTER.txt": small]), "--output", out])
        #expect(one.status == 1 && one.stderr.contains("MASTER.txt:2: expected text, found a NUL byte"), "\(one.stderr)")
        // Past the 8 MiB threshold, MASTER is read in two halves on two threads: a NUL in the second.
        let big = try master { bytes in
            let rows = Array(bytes[line2(bytes)...])
            while bytes.count < 9 << 20 { bytes += rows }
            bytes[bytes.count - rows.count + 10] = 0
        }
        let halves = try TestPaths.run("ingest-faa", [try FAAFixtures.inputCopy(overriding: ["MASTER.txt": big]), "--output", out])
        #expect(halves.status == 1 && halves.stderr.contains("expected text, found a NUL byte"), "\(halves.stderr)")
        #expect(!halves.stderr.contains("rows read"))
    }

    @Test("an FAA file saved as UTF-16 (either byte order, with its mark): refused at 1:1 as UTF-16 (exit 1), not as a NUL byte; a mark-like pair past the start is data")
    func utf16() throws {
        let out = try TestPaths.temporaryDirectory("utf16").path
        for (mark, name) in [([UInt8]([0xFF, 0xFE]), "FF FE"), ([0xFE, 0xFF], "FE FF")] {
            let utf16 = try master { bytes in
                let text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
                bytes = mark + text.utf16.flatMap { name == "FF FE" ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            }
            let run = try TestPaths.run("ingest-faa", [try FAAFixtures.inputCopy(overriding: ["MASTER.txt": utf16]), "--output", out])
            #expect(run.status == 1 && run.stderr.contains(
                "MASTER.txt:1:1: text in UTF-16; save it as UTF-8 (expected UTF-8 text; found UTF-16 (the byte-order mark \(name)))"), "\(run.stderr)")
        }
        // ÿþ in a name on line 2 is Latin-1 text, not a mark.
        let latin1 = try master { bytes in bytes.replaceSubrange(line2(bytes, column: 58)..<line2(bytes, column: 60), with: [0xFF, 0xFE]) }
        let kept = try TestPaths.run("ingest-faa", [try FAAFixtures.inputCopy(overriding: ["MASTER.txt": latin1]), "--output", out])
        #expect(kept.status == 0 && kept.stderr.contains("read as Latin-1"), "\(kept.stderr)")
    }

    @Test("an eBird CSV with a record past 1 MiB: that file is refused at its line (exit 1), the others import")
    func longCSVRecord() throws {
        let directory = try TestPaths.temporaryDirectory("long-csv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = try text(TestPaths.input.appendingPathComponent("exports").path + "/ebird/MyEBirdData.csv").split(separator: "\n")[0]
        try (header + "\n\"" + String(repeating: "x", count: 2 << 20) + "\"\n").write(to: directory.appendingPathComponent("MyEBirdData.csv"), atomically: true, encoding: .utf8)
        let run = try TestPaths.run("ingest-exports", [directory.path + "/MyEBirdData.csv", "input/exports/gpx", "--output", directory.path + "/out"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("MyEBirdData.csv:2: expected a record of at most 1 MiB, found a longer one"), "\(run.stderr)")
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
    }

    @Test("a file name that is not UTF-8 among the exports or seeds: an error naming it (exit 2), not a file left out with exit 0")
    func notUTF8FileName() throws {
        let directory = try TestPaths.temporaryDirectory("latin1-name")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: TestPaths.input.path + "/exports/gpx", toPath: directory.path + "/exports")
        let remove = try TestPaths.createFile(named: Array("caf".utf8) + [0xE9] + Array(".gpx".utf8), in: directory.appendingPathComponent("exports"))
        defer { remove() }
        let run = try TestPaths.run("ingest-exports", [directory.path + "/exports", "--output", directory.path + "/out"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("\(directory.path)/exports/caf\\xE9.gpx: a file name FieldGuide cannot read (rename the file)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out/observations.csv"))
        let validate = try TestPaths.run("validate", [directory.path + "/exports"])
        #expect(validate.status == 2 && validate.stderr.contains("caf\\xE9.gpx: a file name FieldGuide cannot read"), "\(validate.stderr)")
    }

    @Test("a file name with a line break and an escape sequence: named on one line, escaped, in the error (exit 1)")
    func controlCharactersInFileName() throws {
        let directory = try TestPaths.temporaryDirectory("control-name")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "trip\nfieldguide: error: forged\u{1B}[2J.gpx"
        try Data("<gpx><trk><trkseg><trkpt lat=\"x\"".utf8).write(to: directory.appendingPathComponent(name))
        let run = try TestPaths.run("ingest-exports", [directory.path, "--output", directory.path + "/out"])
        #expect(run.status == 1, "\(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("trip") }, "\(run.stderr)")
        #expect(line.contains("trip\\nfieldguide: error: forged\\u{1B}[2J.gpx:"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\nfieldguide: error: forged"), "\(run.stderr)")
    }

    @Test("an FAA owner name holding an escape sequence: ingest-faa keeps the row, replaces each control character with U+FFFD and warns at file:line:field")
    func controlCharactersInData() throws {
        let directory = try TestPaths.temporaryDirectory("control-data")
        defer { try? FileManager.default.removeItem(at: directory) }
        let changed = try master { bytes in
            let name = Array("PETERSEN MARGIT A".utf8), forged: [UInt8] = Array("PETERSEN".utf8) + [0x1B] + Array("[2JMA".utf8) + [0x07] + Array("T  ".utf8)
            let at = bytes.indices.first { bytes[$0...].starts(with: name) }!
            bytes.replaceSubrange(at..<(at + forged.count), with: forged)
        }
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": changed])
        let stage = directory.path + "/stage"
        let run = try TestPaths.run("ingest-faa", [sources, "--output", stage])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("MASTER.txt: 20 rows read, 20 kept, 0 rejected, 1 warning"), "\(run.stderr)")
        let rejects = try text(stage + "/faa-rejects.csv")
        #expect(rejects.contains("warning,MASTER.txt,2,NAME,PETERSEN\u{FFFD}[2JMA\u{FFFD}T,\"expected text, found the control character U+001B; replaced with U+FFFD\"\n"), "\(rejects)")
        let registrations = try text(stage + "/registrations.csv")
        #expect(registrations.contains("PETERSEN\u{FFFD}[2JMA\u{FFFD}T") && !registrations.contains("\u{1B}") && !registrations.contains("\u{7}"))
        #expect(try TestPaths.run("emit-aircraft", [stage, "--output", directory.path + "/out"]).status == 0)
        let shown = try TestPaths.run("fieldguide", ["aircraft", "N100A", "--bundle", directory.path + "/out"])
        #expect(shown.status == 0 && shown.stdout.contains("PETERSEN\u{FFFD}[2JMA\u{FFFD}T\n"), "\(shown.stdout)")
    }

    @Test("a sources directory named with an escape sequence and a line break: the stage's progress lines show it escaped, on one line")
    func controlCharactersInProgressLines() throws {
        let directory = try TestPaths.temporaryDirectory("control-progress")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = directory.path + "/faa\u{1B}[2J\ningest-faa: error: forged"
        try FileManager.default.copyItem(atPath: TestPaths.input.path + "/faa", toPath: sources)
        let run = try TestPaths.run("ingest-faa", [sources, "--output", directory.path + "/stage"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("faa\\u{1B}[2J\\ningest-faa: error: forged"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\ningest-faa: error: forged"), "\(run.stderr)")
    }

    @Test("an artifact holding an escape sequence (a hand-off written by hand): fieldguide's text output shows it escaped, JSON as JSON escapes it")
    func controlCharactersInArtifact() throws {
        let directory = try TestPaths.temporaryDirectory("control-artifact")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = directory.path + "/stage"
        #expect(try TestPaths.run("ingest-faa", ["input/faa", "--output", stage]).status == 0)
        // The hand-off is checked against its report's digest: forge both, as a hand-written hand-off would.
        let registrations = stage + "/registrations.csv", reportPath = stage + "/faa-ingest.json"
        let before = try FileDigest.sha256(ofFileAt: registrations).digest
        try text(registrations).replacingOccurrences(of: "PETERSEN MARGIT A", with: "PETERSEN\u{1B}[2JMA\u{7}T")
            .write(toFile: registrations, atomically: true, encoding: .utf8)
        let after = try FileDigest.sha256(ofFileAt: registrations)
        try text(reportPath).replacingOccurrences(of: before, with: after.digest).write(toFile: reportPath, atomically: true, encoding: .utf8)
        let emit = try TestPaths.run("emit-aircraft", [stage, "--output", directory.path + "/out"])
        #expect(emit.status == 0, "\(emit.stderr)")
        let text = try TestPaths.run("fieldguide", ["aircraft", "N100A", "--bundle", directory.path + "/out"])
        #expect(text.status == 0 && text.stdout.contains("PETERSEN\\u{1B}[2JMA\\u{7}T\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{7}"))
        let json = try TestPaths.run("fieldguide", ["aircraft", "N100A", "--bundle", directory.path + "/out", "--format", "json"])
        #expect(json.stdout.contains(#""PETERSEN\u001b[2JMA\u0007T""#), "\(json.stdout)")
    }

    @Test("a hand-off report with crafted row counts (Int.max, negative): emit-aircraft sizes nothing past the files and builds the same artifact, exit 0")
    func craftedRowCounts() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-counts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = directory.appendingPathComponent("stage").path
        #expect(try TestPaths.run("ingest-faa", ["input/faa", "--output", stage]).status == 0)
        #expect(try TestPaths.run("emit-aircraft", [stage, "--output", directory.path + "/good"]).status == 0)
        // The report is not among the hashed files: its counts can say anything.
        let reportURL = URL(fileURLWithPath: stage + "/faa-ingest.json")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reportURL)) as? [String: Any])
        var sources = try #require(report["sources"] as? [[String: Any]])
        for index in sources.indices {
            var rows = try #require(sources[index]["rows"] as? [String: Any])
            rows["kept"] = (sources[index]["file"] as? String)?.hasPrefix("RESERVED") == true ? -7 : Int.max
            sources[index]["rows"] = rows
        }
        report["sources"] = sources
        try JSONSerialization.data(withJSONObject: report).write(to: reportURL)
        let run = try TestPaths.run("emit-aircraft", [stage, "--output", directory.path + "/crafted"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/crafted/aircraft.fgb"))
            == Data(contentsOf: URL(fileURLWithPath: directory.path + "/good/aircraft.fgb")))
    }

    @Test("disk full: each stage says which file it could not write and why (exit 2), and the artifact already there is untouched")
    func diskFull() throws {
        let directory = try TestPaths.temporaryDirectory("disk-full")
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = directory.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        guard try command("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small]) == 0 else {
            print("note: skipping: cannot mount a small tmpfs here (not root, or not permitted)")
            return
        }
        defer { _ = try? command("/bin/umount", [small]) }
        let stage = directory.appendingPathComponent("stage").path
        #expect(try TestPaths.run("ingest-faa", ["input/faa", "--output", stage]).status == 0)
        #expect(try TestPaths.run("emit-aircraft", [stage, "--output", small + "/a"]).status == 0)
        let published = try Data(contentsOf: URL(fileURLWithPath: small + "/a/aircraft.fgb"))
        // Fill what is left, then write again.
        fill(small + "/filler")
        for (stageName, arguments, file) in [
            // The first of its outputs it writes (the copy of the rejects report), named.
            ("emit-aircraft", [stage, "--output", small + "/a"], small + "/a/aircraft.rejects.csv"),
            ("ingest-faa", ["input/faa", "--output", small + "/faa"], small + "/faa/"),
            ("ingest-birds", ["input/birds", "--output", small + "/birds"], small + "/birds/"),
        ] {
            let run = try TestPaths.run(stageName, arguments)
            #expect(run.status == 2, "\(stageName): \(run.stderr)")
            #expect(run.stderr.contains("\(stageName): error: \(file)") && run.stderr.contains("write failed: No space left on device"), "\(run.stderr)")
            #expect(!run.stderr.contains("cannot read artifact"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: small + "/a/aircraft.fgb")) == published)
    }
}

/// Writes 4 KiB blocks to `path` until the file system refuses one.
private func fill(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT, 0o644)
    defer { close(fd) }
    let block = [UInt8](repeating: 0, count: 4096)
    while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == 4096 {}
}

/// Runs a system command quietly; its exit status.
private func command(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
