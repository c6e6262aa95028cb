import FieldGuide
import Foundation
import Testing
import TestSupport

/// `fieldguide registrations` and `fieldguide enrich --from` as a user meets them: output,
/// exit statuses, and the messages of wrong queries and wrong files.
@Suite("fieldguide registrations and enrich --from, through the executable")
struct RegistryCommandTests {
    static func withArtifact(_ body: (String, URL) throws -> Void) throws {
        let directory = try TestPaths.temporaryDirectory("registry-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path), directory)
    }

    /// Writes `contents` to `name` in `directory` and runs `fieldguide enrich --from` on it.
    static func enrich(_ contents: String, _ name: String, in directory: URL, bundle: String,
                       _ extra: [String] = []) throws -> (path: String, run: (status: Int32, stdout: String, stderr: String)) {
        let file = directory.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return (file.path, try TestPaths.run("fieldguide", ["enrich", "--from", file.path, "--bundle", bundle] + extra))
    }

    @Test("registrations: a count line and aligned rows; JSON with the total and full records")
    func output() throws {
        try Self.withArtifact { bundle, _ in
            let text = try TestPaths.run("fieldguide", ["registrations", "--owner", "c", "--limit", "2", "--offset", "1", "--bundle", bundle])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout == """
                6 registrations: owner "c"; 2–3 shown (--offset 3 for more)
                N13  HOOPOE DRONES HD-4 UAV     COUNTY SHERIFF AIR UNIT  RENO NV
                N14  HOOPOE DRONES HD-R RAMJET  RAMSTREAM TEST CORP      MOJAVE CA

                """)
            let none = try TestPaths.run("fieldguide", ["registrations", "--model", "B738", "--bundle", bundle])
            #expect(none.status == 0 && none.stdout.contains("0 registrations: model \"B738\", no ACFTREF code or model name matches \"B738\" (this bundle holds no ICAO type designators)"))
            // A state no registration has is said to be empty (it read like any filter that matched nothing).
            let zz = try TestPaths.run("fieldguide", ["registrations", "--state", "zz", "--owner", "c", "--bundle", bundle])
            #expect(zz.status == 0 && zz.stdout == "0 registrations: owner \"c\", state ZZ (no registration in this bundle has it)\n", "\(zz.stdout)")
            let ksOther = try TestPaths.run("fieldguide", ["registrations", "--state", "ks", "--owner", "ramstream", "--bundle", bundle])
            #expect(ksOther.stdout == "0 registrations: owner \"ramstream\", state KS\n", "\(ksOther.stdout)")
            let json = try TestPaths.run("fieldguide", ["registrations", "--state", "ks", "--model", "bh", "--format", "json", "--bundle", bundle])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["total"] as? Int == 1 && object["limit"] as? Int == 20)
            #expect(object["models"] as? [String] == ["2100100", "2100200", "2100300"])
            let records = try #require(object["registrations"] as? [[String: Any]])
            #expect(records.map { $0["nNumber"] as? String } == ["N2"] && records[0]["ownerWithheld"] as? Bool == false)
        }
    }

    @Test("registrations: no filter, an all-punctuation owner, a bad state, --limit 0 or abc, a negative --offset: exit 2 naming the option")
    func usage() throws {
        try Self.withArtifact { bundle, _ in
            let cases: [([String], String)] = [
                ([], "expected at least one of --owner, --model, --state, --serial; found none"),
                (["--owner", "..."], "--owner: nothing to search for (expected a word of letters or digits; found \"...\")"),
                (["--state", "Georgia"], "--state: not a state code (expected two letters (GA); found \"Georgia\")"),
                (["--state", "GA", "--limit", "0"], "--limit: out of range (expected 1…10000; found 0)"),
                (["--state", "GA", "--limit", "abc"], "--limit"),
                (["--state", "GA", "--offset=-3"], "--offset: out of range (expected 0 or more; found -3)"),
                (["--model", "-"], "--model: nothing to search for"),
            ]
            for (arguments, message) in cases {
                let run = try TestPaths.run("fieldguide", ["registrations"] + arguments + ["--bundle", bundle])
                #expect(run.status == 2 && run.stderr.contains(message), "\(arguments): \(run.status) \(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
            let missing = try TestPaths.run("fieldguide", ["registrations", "--state", "GA", "--bundle", bundle + ".missing"])
            #expect(missing.status == 2 && missing.stderr.contains("No such file or directory"))
        }
    }

    @Test("enrich --from: a list (comments, blank lines, bad values), a CSV with registration and Mode S columns, JSON lines")
    func batch() throws {
        try Self.withArtifact { bundle, directory in
            let (list, csv) = try Self.enrich("N250JT\r\n# seen at PANC\r\n\r\n100a\r\nA1B2C3\r\nADF7C7\r\nnot an id\r\nZZZ\r\nN0123\r\n", "list.txt",
                                              in: directory, bundle: bundle)
            #expect(csv.status == 0, "\(csv.stderr)")
            let rows = csv.stdout.split(separator: "\n").map(String.init)
            #expect(rows.count == 8 && rows[0].hasPrefix("line,input,status,matched_by,registration,mode_s_hex,"))
            #expect(rows[1].hasPrefix("1,N250JT,found,registration,N250JT,A1B2C3,BH9-0005,BLUEHERON AIRCRAFT CO,BH-900 JET,2019,"))
            #expect(rows[2].hasPrefix("4,100a,found,registration,N100A,A00001,") && rows[2].contains(",Individual,no,PETERSEN MARGIT A,14 LARKSPUR LN,"))
            #expect(rows[3].hasPrefix("5,A1B2C3,found,mode_s,N250JT,"))
            #expect(rows[4] == "6,ADF7C7,not_found" + String(repeating: ",", count: 23))
            #expect(rows[5].hasPrefix("7,not an id,invalid,"))
            // Not US N-numbers (letters only; a leading 0): invalid, never "not found" (they were).
            #expect(rows[6].hasPrefix("8,ZZZ,invalid,") && rows[7].hasPrefix("9,N0123,invalid,"), "\(rows)")
            #expect(csv.stderr.contains("enriched 3 of 7 inputs from \(list) (1 not found, 3 invalid)"))

            let json = try Self.enrich("icao,manufacturer,registration,mode_s_hex\nB738,Boeing,N250JT,\nC172,Cessna,,a00002\n", "captures.csv",
                                       in: directory, bundle: bundle, ["--format", "json"]).run
            let lines = json.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(lines.count == 2 && lines[0]?["line"] as? Int == 2 && lines[1]?["matchedBy"] as? String == "mode_s")
            #expect((lines[1]?["enrichment"] as? [String: Any])?["registration"] as? String == "N101BZ")
        }
    }

    @Test("enrich --from: a CSV without an identifier column exits 1 at its header; empty exits 1; missing exits 2; both forms is usage")
    func batchErrors() throws {
        try Self.withArtifact { bundle, directory in
            let (noColumn, wrong) = try Self.enrich("icao,model\nB738,737-800\n", "no-column.csv", in: directory, bundle: bundle)
            #expect(wrong.status == 1 && wrong.stderr.contains("no-column.csv:1: no identifier column (expected a column named registration or mode_s_hex, or one N-number or Mode S address per line; found icao,model)"), "\(wrong.stderr)")
            let nothing = try Self.enrich("", "empty.txt", in: directory, bundle: bundle).run
            #expect(nothing.status == 1 && nothing.stderr.contains("empty.txt: nothing to enrich"), "\(nothing.stderr)")
            let missing = try TestPaths.run("fieldguide", ["enrich", "--from", directory.appendingPathComponent("nope.txt").path, "--bundle", bundle])
            #expect(missing.status == 2 && missing.stderr.contains("nope.txt: cannot open: No such file or directory"), "\(missing.stderr)")
            let both = try TestPaths.run("fieldguide", ["enrich", "N250JT", "--from", noColumn, "--bundle", bundle])
            #expect(both.status == 2 && both.stderr.contains("found both"))
            let bad = try TestPaths.run("fieldguide", ["enrich", "hello world", "--bundle", bundle])
            #expect(bad.status == 2 && bad.stderr.contains("expected an N-number (N250JT) or a Mode S address (A1B2C3), found hello world"))
            let open = try Self.enrich("registration\n\"N250JT\n", "unterminated.csv", in: directory, bundle: bundle).run
            #expect(open.status == 1 && open.stderr.contains("unterminated.csv:2"), "\(open.stderr)")
        }
    }
}
