import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// A copy of `input/birds` in a fresh directory, for files to be changed in.
private func birdsCopy() throws -> URL {
    let directory = try TestPaths.temporaryDirectory("birds-bounds")
    let copy = directory.appendingPathComponent("birds")
    try FileManager.default.copyItem(at: TestPaths.input.appendingPathComponent("birds"), to: copy)
    return copy
}

/// Replaces the first `old` in the file at `url` with `new` bytes.
private func replace(_ old: String, with new: [UInt8], in url: URL) throws {
    var bytes = [UInt8](try Data(contentsOf: url))
    let needle = Array(old.utf8)
    guard let at = (0...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }) else {
        Issue.record("\(old) not in \(url.lastPathComponent)")
        return
    }
    bytes.replaceSubrange(at..<(at + needle.count), with: new)
    try Data(bytes).write(to: url)
}

private func report(_ directory: String) throws -> StageReport {
    try JSONDecoder().decode(StageReport.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/birds-ingest.json")))
}

@Suite("ingest-birds on hostile and legacy files", .serialized)
struct BirdBoundsTests {
    @Test("an unparseable bird database: exit 1 with a rejected report and the line:col validate finds (not 'no bird database', exit 2)")
    func unparseableDatabase() throws {
        let birds = try birdsCopy()
        try replace("\"birds\"", with: Array("\"birds\" {{".utf8), in: birds.appendingPathComponent("bird_database.json"))
        let out = birds.deletingLastPathComponent().appendingPathComponent("out").path
        let run = try TestPaths.run("ingest-birds", [birds.path, "--output", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("error: no bird database among"))
        let validate = try TestPaths.run("validate", [birds.path])
        let place = try #require(validate.stdout.split(separator: "\n").first { $0.contains("bird_database.json:") && $0.contains("error") })
        #expect(run.stderr.contains(String(place)), "\(place)")
        let written = try report(out)
        #expect(written.status == .rejected && written.findings.errors == 1)
        #expect(written.findings.listed?.first { $0.severity == .error }.map { "\($0.file):\($0.line!):\($0.column!)" }
            == place.split(separator: ":").prefix(3).joined(separator: ":"))
    }

    @Test("Latin-1 bytes in the taxonomy, a bar chart, the Status & Trends runs and a labels list: read as Latin-1, each warned at file:line, counted; the hand-off is UTF-8")
    func latin1References() throws {
        let birds = try birdsCopy()
        try replace("Gray Heron,Ardea", with: Array("Gray H".utf8) + [0xE9] + Array("ron,Ardea".utf8), in: birds.appendingPathComponent("taxonomy/taxonomy.csv"))
        let chart = birds.appendingPathComponent("ebird/barchart-fenland.txt"), runs = birds.appendingPathComponent("ebird/ebirdst_runs_example.csv")
        let labels = birds.appendingPathComponent("names/BirdNET_Labels_de.txt")
        try replace("Gray Heron\t", with: Array("Gray H".utf8) + [0xE9] + Array("ron\t".utf8), in: chart)
        try replace("Bohemian Waxwing,", with: Array("Bohemian Waxw".utf8) + [0xEF] + Array("ng,".utf8), in: runs)
        try replace("_Graureiher", with: Array("_Graur".utf8) + [0xE9] + Array("iher".utf8), in: labels)
        let out = birds.deletingLastPathComponent().appendingPathComponent("out").path
        let run = try TestPaths.run("ingest-birds", [birds.path, "--output", out, "--barchart", chart.path, "--seasons", runs.path, "--labels", labels.path])
        #expect(run.status == 0, "\(run.stderr)")
        for place in ["taxonomy.csv:3:1: warning: PRIMARY_COM_NAME \"Gray Héron\": not valid UTF-8; read as Latin-1 (ISO-8859-1)",
                      "barchart-fenland.txt:", "ebirdst_runs_example.csv:3:1: warning: common_name \"Bohemian Waxwïng\"",
                      "BirdNET_Labels_de.txt:2:1: warning: label \"Ardea cinerea_Grauréiher\""] {
            #expect(run.stderr.contains(place), "\(place)")
        }
        let written = try report(out)
        #expect(written.counts["fieldsReadAsLatin1"] == 3)   // the references'; the taxonomy's is a seed file's finding
        #expect(written.findings.listed?.filter { $0.rule == "encoding" }.count == 4)
        let names = try String(contentsOfFile: out + "/names.csv", encoding: .utf8)
        #expect(names.contains("Grauréiher") && !names.contains("\u{FFFD}"))
    }

    @Test("a control character in the taxonomy, a bar chart, the Status & Trends runs and a labels list: U+FFFD, each warned at file:line (rule text), not counted as Latin-1; validate warns too")
    func controlCharacterReferences() throws {
        let birds = try birdsCopy()
        let esc: [UInt8] = [0x1B, 0x5B, 0x32, 0x4A]   // ESC [2J: clears a terminal
        try replace("Gray Heron,Ardea", with: Array("Gray H".utf8) + esc + Array("ron,Ardea".utf8), in: birds.appendingPathComponent("taxonomy/taxonomy.csv"))
        let chart = birds.appendingPathComponent("ebird/barchart-fenland.txt"), runs = birds.appendingPathComponent("ebird/ebirdst_runs_example.csv")
        let labels = birds.appendingPathComponent("names/BirdNET_Labels_de.txt")
        try replace("Gray Heron\t", with: Array("Gray H".utf8) + [0x08] + Array("ron\t".utf8), in: chart)   // a NUL: a binary file, refused
        try replace("Bohemian Waxwing,", with: Array("Bohemian Waxw".utf8) + [0x7F] + Array("ng,".utf8), in: runs)
        try replace("_Graureiher", with: Array("_Graur".utf8) + [0x07, 0xE9] + Array("iher".utf8), in: labels)
        let out = birds.deletingLastPathComponent().appendingPathComponent("out").path
        let run = try TestPaths.run("ingest-birds", [birds.path, "--output", out, "--barchart", chart.path, "--seasons", runs.path, "--labels", labels.path])
        #expect(run.status == 0, "\(run.stderr)")
        for place in ["taxonomy.csv:3:1: warning: PRIMARY_COM_NAME \"Gray H\u{FFFD}[2Jron\": expected text, found the control character U+001B; replaced with U+FFFD",
                      "barchart-fenland.txt:", "found the control character U+0008;",
                      "ebirdst_runs_example.csv:3:1: warning: common_name \"Bohemian Waxw\u{FFFD}ng\": expected text, found the control character U+007F",
                      "BirdNET_Labels_de.txt:2:1: warning: label \"Ardea cinerea_Graur\u{FFFD}\u{E9}iher\": not valid UTF-8",
                      "BirdNET_Labels_de.txt:2:1: warning: label \"Ardea cinerea_Graur\u{FFFD}\u{E9}iher\": expected text, found the control character U+0007"] {
            #expect(run.stderr.contains(place), "\(place)")
        }
        #expect(!run.stderr.utf8.contains(0x1B) && !run.stderr.utf8.contains(0x07))
        let written = try report(out)
        #expect(written.counts["fieldsReadAsLatin1"] == 1)   // the label's: one field, two readings
        #expect(written.findings.listed?.filter { $0.rule == "text" }.count == 4)
        #expect(written.findings.listed?.filter { $0.rule == "encoding" }.count == 1)
        for file in ["names.csv", "bar-charts.csv", "seasons.csv", "taxa.csv"] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + file)))
            #expect(!bytes.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }, "\(file)")
        }
        #expect(try String(contentsOfFile: out + "/names.csv", encoding: .utf8).contains("Graur\u{FFFD}éiher"))
        let validate = try TestPaths.run("validate", [birds.appendingPathComponent("taxonomy").path])
        #expect(validate.status == 0 && validate.stdout.contains("taxonomy.csv:3:1: warning: PRIMARY_COM_NAME \"Gray H\u{FFFD}[2Jron\": expected text"),
                "\(validate.stdout)\(validate.stderr)")
    }

    @Test("a seed JSON, the taxonomy, a bar chart, the Status & Trends runs or a labels list saved as UTF-16: refused at 1:1 as UTF-16 (exit 1, validate too for a seed); a labels list holding a NUL at its line",
          arguments: ["watchlists.json", "taxonomy/taxonomy.csv", "ebird/barchart-fenland.txt", "ebird/ebirdst_runs_example.csv", "names/BirdNET_Labels_de.txt"])
    func utf16References(file: String) throws {
        let birds = try birdsCopy()
        let url = birds.appendingPathComponent(file)
        var text = try String(contentsOf: url, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: url)
        let out = birds.deletingLastPathComponent().appendingPathComponent("out").path
        let options = ["--barchart", birds.appendingPathComponent("ebird/barchart-fenland.txt").path,
                       "--seasons", birds.appendingPathComponent("ebird/ebirdst_runs_example.csv").path,
                       "--labels", birds.appendingPathComponent("names/BirdNET_Labels_de.txt").path]
        let run = try TestPaths.run("ingest-birds", [birds.path, "--output", out] + options)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains(url.lastPathComponent + ":1:1: ") && run.stderr.contains(
            "text in UTF-16; save it as UTF-8 (expected UTF-8 text; found UTF-16 (the byte-order mark FF FE))"), "\(run.stderr)")
        if file.hasSuffix(".json") {
            let validate = try TestPaths.run("validate", [birds.path])
            #expect(validate.status == 1 && validate.stdout.contains(url.path + ":1:1: error: text in UTF-16; save it as UTF-8 (expected UTF-8 text; found UTF-16"),
                    "\(validate.stdout)")
        }
        guard file.hasSuffix(".txt"), file.hasPrefix("names") else { return }
        try Data("Anas platyrhynchos_Stockente\nCygnus olor_H\u{F6}ckerschwan\nArdea cinerea_Grau\u{0}reiher\n".utf8).write(to: url)
        let nul = try TestPaths.run("ingest-birds", [birds.path, "--output", out] + options)
        #expect(nul.status == 1 && nul.stderr.contains("BirdNET_Labels_de.txt:3: expected text, found a NUL byte (binary or wrongly encoded file)"), "\(nul.stderr)")
    }

    @Test("a bar chart of one 2 MiB line is refused as it passes the 1 MiB record bound (exit 1); a seed file past 128 MiB is refused from its size")
    func bounds() throws {
        let birds = try birdsCopy()
        let chart = birds.deletingLastPathComponent().appendingPathComponent("barchart-long.txt")
        try Data(repeating: UInt8(ascii: "x"), count: 2 << 20).write(to: chart)
        let out = birds.deletingLastPathComponent().appendingPathComponent("out").path
        let long = try TestPaths.run("ingest-birds", [birds.path, "--output", out, "--barchart", chart.path])
        #expect(long.status == 1 && long.stderr.contains("barchart-long.txt:1: expected a record of at most 1 MiB, found a longer one"), "\(long.stderr)")
        // A sparse file: 129 MiB declared, nothing written.
        let huge = birds.appendingPathComponent("watchlists.json")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 129 << 20)
        try handle.close()
        let big = try TestPaths.run("ingest-birds", [birds.path, "--output", out])
        #expect(big.status == 1 && big.stderr.contains("watchlists.json: expected a bird seed file of at most 128 MiB, found 129 MiB; refused before reading it"), "\(big.stderr)")
    }
}
