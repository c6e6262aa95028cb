@testable import FieldGuideExports
import Foundation
import Testing
import TestSupport

@Suite("Hostile and broken files are refused with a located error")
struct SafetyTests {
    @Test("billion laughs is refused quickly")
    func billionLaughs() {
        let start = ContinuousClock.now
        let error = refusal(ExportFixtures.broken("billion-laughs.xmp"))
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(error?.kind == .refused && (error?.line ?? 0) >= 1 && error?.column != nil)
    }

    @Test("an external entity is never loaded (no network, no file)")
    func externalEntity() {
        let error = refusal(ExportFixtures.broken("external-entity.plist"))
        #expect(error?.kind == .refused && error?.message.contains("secret") == true)
        #expect(error?.line == 5)
    }

    @Test("a mismatched tag is located at file:line:col")
    func malformed() {
        let error = refusal(ExportFixtures.broken("mismatched-tag.gpx"))
        #expect(error?.kind == .malformed && error?.line == 5 && error?.column == 9)
        #expect(error?.description.hasSuffix("mismatched-tag.gpx:5:9: Opening and ending tag mismatch: wpt line 3 and trk") == true)
    }

    @Test("a truncated sidecar is refused where it ends, naming the element it ends inside")
    func truncated() {
        let error = refusal(ExportFixtures.broken("truncated.xmp"))
        #expect(error?.kind == .malformed && error?.line == 6 && error?.column != nil)
        #expect(error?.message == "expected </rdf:li> to close the <rdf:li> of line 6, found the end of the file (cut short?)")
    }

    @Test("Latin-1 bytes in a file declared UTF-8 are refused at the byte: XML and CSV")
    func wrongEncoding() {
        let xml = refusal(ExportFixtures.broken("latin1-declared-utf8.gpx"))
        #expect(xml?.kind == .encoding && xml?.line == 4 && xml?.column == 14)
        let csv = refusal(ExportFixtures.broken("latin1-ebird.csv"))
        #expect(csv?.kind == .encoding && csv?.line == 2 && csv?.column == 50 && csv?.message.contains("(Location)") == true)
    }

    @Test("empty files are refused at 1:1, whatever their extension")
    func empty() throws {
        #expect(refusal(ExportFixtures.broken("empty.plist"))?.kind == .empty)
        let blank = try ExportFixtures.write(" \n\r\n", name: "blank.csv")
        let error = refusal(blank)
        #expect(error?.kind == .empty && error?.line == 1 && error?.column == 1)
    }

    @Test("an unknown plist element or XML root is refused with its line")
    func unknownShapes() {
        let plist = refusal(ExportFixtures.broken("unknown-element.plist"))
        #expect(plist?.kind == .malformed && plist?.line == 6 && plist?.message == "unknown property list element <float>")
        let root = refusal(ExportFixtures.broken("not-an-export.xml"))
        #expect(root?.kind == .unrecognized && root?.line == 2)
    }

    /// The SAX2 reader hands out the nodes before a later XML error, so the property list
    /// reader's own checks now meet text that libxml2's reader used to stop at first.
    @Test("text outside a plist value is refused at its line, before a later tag mismatch too")
    func textOutsideAValue() throws {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n"
        let stray = try ExportFixtures.write(head + "stray words\n<string>x</string>\n</dict>\n</plist>\n", name: "stray.plist")
        let error = refusal(stray)
        #expect(error?.kind == .malformed && error?.line == 5, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("expected elements only between values, found text outside a value: ") == true)
        let mismatch = try ExportFixtures.write(head + "stray\n<string>x</string>\n</key>\n</plist>\n", name: "mismatch.plist")
        #expect(refusal(mismatch)?.line == 5)
    }

    @Test("a CSV with neither header is unrecognized at line 1")
    func unknownCSV() throws {
        let path = try ExportFixtures.write("a,b,c\n1,2,3\n", name: "other.csv")
        let error = refusal(path)
        #expect(error?.kind == .unrecognized && error?.line == 1)
    }
}
