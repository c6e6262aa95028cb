@testable import FieldGuideXML
import Foundation
import Testing
import TestSupport

/// libxml2 (2.9) keeps an element's line in 16 bits: past line 65,535 every element said 65535
/// (43,164 of about 112,000 observation rows of a 10 MB property list and GPX did). The reader
/// now takes those lines from its own scan of the bytes, counting start tags alongside libxml2.
@Suite("Element lines past 65,535")
struct BigLineNumberTests {
    /// A document of `lines` lines: one `<p n="LINE">` per line, with the markup that must not
    /// count as a start tag (comments and CDATA holding `<`, end tags, a processing
    /// instruction) and empty elements spread through it, and past 65,535 a start tag spread
    /// over two lines. Returns the text and, for each `p`, the line of its `<`.
    static func document(lines: Int) -> (text: String, expected: [Int]) {
        var text = "<?xml version=\"1.0\"?>\n<doc>\n"
        var expected: [Int] = []
        var line = 3
        while line < lines {
            switch line % 7 {
            case 0: text += "<!-- <p n=\"0\"> is not a tag here -->\n"
            case 1: text += "<c><![CDATA[<p n=\"0\"> <not/> a tag]]></c>\n"
            case 2: text += "<?pi <p n=\"0\"> ?><e/>\n"
            case 3 where line > 65_600:
                text += "<p n=\"\(line)\"\n   k=\"v\"></p>\n"
                expected.append(line)
                line += 1
            default:
                text += "<p n=\"\(line)\"><q>x</q></p>\n"
                expected.append(line)
            }
            line += 1
        }
        return (text + "</doc>\n", expected)
    }

    @Test("every element past line 65,535 gets the line of its `<`, comments, CDATA and instructions not counted")
    func linesPastTheCap() throws {
        let (text, expected) = Self.document(lines: 140_000)
        let path = try writeTemp(text, name: "big.xml")
        let reader = try XMLStreamReader(path: path)
        var found: [Int] = [], wrong: [(Int, Int)] = []
        while let event = try reader.next() {
            guard case let .start(name, attributes, line) = event, name == "p", let n = attributes.first.flatMap({ Int($0.value) }) else { continue }
            found.append(n)
            if line != n, wrong.count < 5 { wrong.append((n, line)) }
        }
        #expect(found == expected)
        #expect(wrong.isEmpty, "expected line, found: \(wrong)")
    }

    @Test("the scanner keeps the same start-tag lines whether it skips runs of short tags or walks every byte, in any chunking")
    func scannerPathsAgree() {
        let bytes = Array(Self.document(lines: 70_000).text.utf8)
        func lines(chunk: Int, skipping: Bool) -> [Int?] {
            var scanner = StartTagScanner()
            scanner.skipsShortTags = skipping
            var start = 0
            while start < bytes.count {
                let end = min(start + chunk, bytes.count)
                #expect(bytes[start..<end].withUnsafeBytes { scanner.scan($0) } == nil)
                start = end
            }
            // Which tags below line 60,000 have lines depends on the chunking (a chunk that may
            // reach it keeps them all); from there on every tag has.
            return (0..<scanner.startTags).map { scanner.takeLine(ofStartTag: $0).flatMap { $0 >= 60_000 ? $0 : nil } }
        }
        let walked = lines(chunk: 4_096, skipping: false)
        // Tags from line 60,000 on have lines, in order, and the last is the last line's.
        let kept = walked.compactMap { $0 }
        #expect(kept.count > 1_000 && kept == kept.sorted() && kept.first! == 60_000 && kept.last! == 69_999)
        for (chunk, skipping) in [(4_096, true), (997, true), (997, false), (3, true)] {
            #expect(lines(chunk: chunk, skipping: skipping) == walked, "chunk \(chunk), skipping \(skipping)")
        }
    }
}
