@testable import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// `manufacturers(prefix:limit:)` against a scan of every manufacturer's folded name: the same
/// rows in the same order whether the keys alone give the range (a prefix of at most 8 bytes)
/// or the names are compared (a longer one, or one with a zero byte).
@Suite("Manufacturers by prefix: the keys' range equals a scan of the names")
struct ManufacturerPrefixTests {
    /// Every prefix of every folded name up to 12 bytes (and some that match nothing), at
    /// several limits, against a scan of the names (the query ignores surrounding spaces, so
    /// the scan looks for the prefix without them). Returns how many prefixes were compared, and
    /// how many of those past 8 bytes first matched right after a name sharing those 8 bytes.
    static func compareEveryPrefix(_ bundle: AircraftBundle) -> (prefixes: Int, sharedKey: Int) {
        let names = (0..<bundle.manufacturerCount).map { [UInt8](bundle.strings.bytes(bundle.manufacturerRows.value($0, .foldedName))) }
        // Every name's rows under each of its prefixes: what a scan of all names finds for them.
        var rowsByPrefix: [[UInt8]: [Int]] = [:]
        for (row, name) in names.enumerated() {
            for length in 1...min(name.count, 12) { rowsByPrefix[Array(name[0..<length]), default: []].append(row) }
        }
        let prefixes = Set(rowsByPrefix.keys).union([[], Array("A\u{0}".utf8), Array("ZZZZZZZZZZ".utf8), Array("\u{0}".utf8)])
        var sharedKey = 0
        for prefix in prefixes {
            let text = String(decoding: prefix, as: UTF8.self)
            let trimmed = AircraftBundle.trimmedASCII(text, uppercase: false)
            let scanned = trimmed.isEmpty ? Array(names.indices) : rowsByPrefix[trimmed] ?? []
            for limit in [0, 1, 3, 100, Int.max] {
                let found = bundle.manufacturers(prefix: text, limit: limit).map(\.row)
                #expect(found == Array(scanned.prefix(limit)), "\(text.debugDescription), limit \(limit)")
            }
            if trimmed.count > 8, let first = scanned.first, first > 0, names[first - 1].starts(with: trimmed[0..<8]) { sharedKey += 1 }
        }
        return (prefixes.count, sharedKey)
    }

    @Test("input/faa: every prefix of every name, at limits 0, 1, 3, 100 and Int.max")
    func fixture() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        #expect(Self.compareEveryPrefix(bundle).prefixes > 50)
    }

    @Test("the real ACFTREF sample: every prefix of every name equals the scan")
    func realSample() throws {
        try withSharedSampleBundle("manufacturer-prefix-real") { bundle in
            #expect(bundle.manufacturerCount > 100)
            // Prefixes past 8 bytes whose first match follows a name sharing those 8 bytes: before
            // the names were searched, the query stopped at that name and found nothing.
            #expect(Self.compareEveryPrefix(bundle).sharedKey > 100)
        }
    }
}
