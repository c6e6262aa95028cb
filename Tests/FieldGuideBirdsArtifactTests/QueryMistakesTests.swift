import Foundation
import Testing
import TestSupport

/// A user's ordinary mistakes get a clear answer naming the bad value (usage, exit 2), never
/// "nothing found" or the top-level usage.
@Suite("fieldguide: mistakes named, with the closest values")
struct QueryMistakesTests {
    @Test("unknown vocabulary, bad values, blank arguments and an empty result, over the real birds artifact and input/faa")
    func mistakes() throws {
        guard let built = RealBirds.built else { return }
        let birds = ["--bundle", built.bundle.path]
        let shape = try TestPaths.run("fieldguide", ["identify", "--shape", "Corvid"] + birds)
        #expect(shape.status == 2 && shape.stderr.contains("unknown shape Corvid; did you mean Corvidae?"), "\(shape.stderr)")
        let region = try TestPaths.run("fieldguide", ["species", "--region", "Pune", "--month", "1"] + birds)
        #expect(region.status == 2 && region.stderr.contains("unknown region Pune; did you mean \"Pune, India\"?"), "\(region.stderr)")
        // A pasted paragraph is echoed as its first 77 characters, not whole.
        let paragraph = String(repeating: "Pune ", count: 1000)
        for arguments in [["species", "--region", paragraph, "--month", "1"], ["species", "--named", paragraph]] {
            let long = try TestPaths.run("fieldguide", arguments + birds)
            #expect(long.stderr.contains(String(paragraph.prefix(77)) + "...") && long.stderr.utf8.count < 1000, "\(long.stderr.prefix(300))")
        }
        let period = try TestPaths.run("fieldguide", ["frequency", "Ivory Gull", "--region", "Svalbard", "--period", "49"] + birds)
        #expect(period.status == 2 && period.stderr.contains("--period: expected 1–48, found 49"))
        #expect(period.stderr.contains("Usage: fieldguide frequency"))
        let date = try TestPaths.run("fieldguide", ["identify", "--date", "15/01/2026"] + birds)
        #expect(date.status == 2 && date.stderr.contains("Usage: fieldguide identify"))
        // Blank arguments: refused as such before the bundle is asked, not "unknown region ;".
        for (arguments, message) in [(["species", "--region", "", "--month", "1"], "--region: expected a region (Svalbard, US-NY), found \"\""),
                                     (["species", "--named", " "], "--named: expected a name or a species code, found \" \""),
                                     (["frequency", "", "--region", "Svalbard"], "<taxon>: expected a name or a species code, found \"\"")] {
            let blank = try TestPaths.run("fieldguide", arguments + birds)
            #expect(blank.status == 2 && blank.stderr.contains(message), "\(arguments): \(blank.stderr)")
            #expect(!blank.stderr.contains("in the bundle") && !blank.stderr.contains("unknown region"), "\(blank.stderr)")
        }
        let codes = try TestPaths.run("fieldguide", ["codes", "nonsense"])
        #expect(codes.status == 2 && codes.stderr.contains("unknown code table nonsense") && codes.stderr.contains("Usage: fieldguide codes"))

        let directory = try TestPaths.temporaryDirectory("mistakes")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (tool, arguments) in [("ingest-faa", ["input/faa", "--output", directory.path + "/stage"]),
                                  ("emit-aircraft", [directory.path + "/stage", "--output", directory.path])] {
            #expect(try TestPaths.run(tool, arguments).status == 0)
        }
        let none = try TestPaths.run("fieldguide", ["manufacturers", "zzzz", "--bundle", directory.path + "/aircraft.fgb"])
        #expect(none.status == 0 && none.stdout == "none: no manufacturer starts with zzzz\n")
    }
}
