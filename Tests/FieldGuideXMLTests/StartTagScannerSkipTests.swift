@testable import FieldGuideXML
import Foundation
import Testing

/// `StartTagScanner` skipping runs of short tags (`skipsShortTags`) answers exactly as its
/// byte-by-byte walk: the same refusal (line, column, element) or none, for any limit and chunking.
@Suite("StartTagScanner: short tags skipped, the same answers")
struct StartTagScannerSkipTests {
    func expectSame(_ text: String, _ label: String) {
        for limit in [1, 2, 3, 5, 8, 40] {
            for chunk in [1, 3, 7, 64, 4096] {
                let walked = scan(text, limit: limit, chunk: chunk, skipping: false)
                #expect(scan(text, limit: limit, chunk: chunk, skipping: true) == walked, "\(label), limit \(limit), chunk \(chunk)")
            }
        }
    }

    @Test("the project's and the real exports, and markup that stops a run")
    func files() throws {
        for file in try xmlExportFiles() { expectSame(try String(contentsOfFile: file, encoding: .utf8), file) }
        let crafted = [
            "<a x='1' y=\"2\"/>\n<b p=1 q=2 r=3>t</b>", "<a x=\"<b p=1 q=2 r=3>\"/>", "<!-- <a x=1 y=2 z=3> --><a b=1 c=2 d=3/>",
            "<r><![CDATA[ <a x=1 y=2 z=3> ]]></r><s a='1' b='2' c='3'/>", "<?pi a=1 b=2 c=3?><r a=1 b=2 c=3/>",
            "<!DOCTYPE r [ <!ATTLIST r a CDATA \"x=y=z\"> <!-- a=b=c=d --> ]><r a=\"1\" b=\"2\" c=\"3\"/>", "<=====><a/>", "< a=1 b=2 c=3>",
            "<a\n b='>' c='=' d=\"=\"\n e=1>", "</a x=1 y=2 z=3><b/>", "<<<<a b=1 c=2 d=3>>>",
        ]
        for text in crafted { expectSame(text, text) }
    }

    @Test("2,000 random documents of tags, values, comments and text")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<a", "<bb ", "</a>", ">", "/>", " x=", "=", "'", "\"", "v", "\n", "<!--", "-->", "<![CDATA[", "]]>", "<?p", "?>",
                      "<!DOCTYPE r [", "]>", " ", "text", "<"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            expectSame(text, text)
        }
    }
}
