import FieldGuide
import Foundation
import Testing
import TestSupport

@Suite("US Mode S addresses and N-numbers, computed")
struct USModeSTests {
    @Test("the block's ends and known pairs")
    func knownPairs() {
        #expect(USModeS.nNumber(address: "A00001") == "N1")
        #expect(USModeS.nNumber(address: "ADF7C7") == "N99999")
        #expect(USModeS.nNumber(address: "A00002") == "N1A")
        #expect(USModeS.nNumber(address: "A00003") == "N1AA")
        #expect(USModeS.nNumber(address: "a00001") == "N1")
        #expect(USModeS.address(nNumber: "N90") == "AC6CD2")   // MASTER.sample.txt: N90's MODE S CODE HEX
        #expect(USModeS.nNumber(address: "AC6CD2") == "N90")
        #expect(USModeS.nNumber(address: "A00000") == nil && USModeS.nNumber(address: "ADF7C8") == nil)
        #expect(USModeS.nNumber(address: "4CA123") == nil && USModeS.nNumber(address: "ZZZZZZ") == nil)
        for invalid in ["N0", "N012", "N123456", "NI", "N1O", "N12ABC", "N1A2", "", "N"] {
            #expect(USModeS.address(nNumber: invalid) == nil, "\(invalid)")
        }
    }

    @Test("every address of the block round-trips, in N-number order")
    func roundTrip() {
        var count = 0
        for value in USModeS.first...USModeS.last {
            let hex = String(value, radix: 16, uppercase: true)
            guard let n = USModeS.nNumber(address: hex), USModeS.address(nNumber: n) == hex else {
                Issue.record("\(hex) does not round-trip"); return
            }
            count += 1
        }
        #expect(count == 915_399)
    }

    @Test("the real Mode S table: computed N-numbers match its US registrations (rate stated)")
    func realTable() throws {
        guard let url = TestPaths.shared("aircraft/modes-registrations.json") else { return }
        let table = try JSONDecoder().decode([String: [String]].self, from: Data(contentsOf: url))
        var us = 0, matched = 0
        for (address, fields) in table {
            guard let value = UInt32(address, radix: 16), value >= USModeS.first, value <= USModeS.last,
                  let registration = fields.first, registration.hasPrefix("N") else { continue }
            us += 1
            if USModeS.nNumber(address: address) == registration { matched += 1 }
        }
        // 286,606 of 286,757 (99.95%); the rest are the table's own errors (N1199JJ is seven
        // characters, NAF205 a military serial) or re-registrations keeping an old address.
        print("note: Mode S arithmetic matches \(matched) of \(us) US registrations in the real table")
        #expect(us > 280_000)
        #expect(Double(matched) / Double(us) > 0.999)
    }

    @Test("fieldguide modes: a US address outside MASTER gives its computed N-number; bad hex is a usage error")
    func command() throws {
        let directory = try TestPaths.temporaryDirectory("modes-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = ["--bundle", try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)]
        let computed = try TestPaths.run("fieldguide", ["modes", "ADF7C7"] + bundle)
        #expect(computed.status == 0)
        #expect(computed.stdout.contains("N99999 (computed from the address; not in the registry)"))
        let json = try TestPaths.run("fieldguide", ["modes", "adf7c7", "--format", "json"] + bundle)
        #expect(json.stdout.contains(#""computed" : true"#) && json.stdout.contains(#""nNumber" : "N99999""#))
        let bad = try TestPaths.run("fieldguide", ["modes", "ZZZZZZ"] + bundle)
        #expect(bad.status == 2 && bad.stderr.contains("<address>: expected six hex digits (AC6CD2), found ZZZZZZ"))
        #expect(bad.stderr.contains("Usage: fieldguide modes"))
        let garbage = try TestPaths.run("fieldguide", ["aircraft", "garbage!!"] + bundle)
        #expect(garbage.status == 2 && garbage.stderr.contains("expected a US N-number"))
        #expect(try TestPaths.run("fieldguide", ["modes", "4CA123"] + bundle).status == 1)
    }
}
