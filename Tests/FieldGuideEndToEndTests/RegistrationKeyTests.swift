import FieldGuide
import Testing
import TestSupport

@Suite("Registration keys: what a lookup accepts as an N-number")
struct RegistrationKeyTests {
    /// The forms people type, and the ones that cannot be an N-number: trimmed (spaces and tabs
    /// at either end only), upper-cased, dashes dropped, one leading `N` dropped and put back,
    /// one to five marks of digits and capital letters.
    @Test("normalizedRegistration: accepted forms and refusals")
    func forms() {
        let cases: [(String, String?)] = [
            ("N12345", "N12345"), ("n12345", "N12345"), ("12345", "N12345"), (" \tn-123ab ", "N123AB"),
            ("-N12", "N12"), ("N1-2", "N12"), ("NN1", "NN1"), ("N", nil), ("", nil), ("  ", nil), ("-", nil),
            ("N123456", nil), ("123456", nil), ("N12 3", nil), ("N12é", nil), ("N12.", nil), ("é1", nil),
            ("N12345 ", "N12345"), ("N12345 -", nil), ("n1a", "N1A"),
        ]
        for (text, expected) in cases {
            #expect(AircraftBundle.normalizedRegistration(text) == expected, "\(text)")
        }
    }

    /// Short canonical keys are read from the string's own word (`inlineRegistrationKey`); these
    /// sit on every edge of its checks (bytes just outside 0-9 and A-Z, every length, a string too
    /// long to be inline) and must give what the byte-by-byte path gives.
    @Test("the inline fast path and the general path agree on every edge")
    func inlineEdges() {
        let cases: [(String, String?)] = [
            ("N1", "N1"), ("N0", "N0"), ("N9", "N9"), ("NA", "NA"), ("NZ", "NZ"), ("N99999", "N99999"), ("NZZZZZ", "NZZZZZ"),
            ("N/", nil), ("N:", nil), ("N@", nil), ("N[", nil), ("N`", nil), ("N{", nil), ("N1/", nil), ("N1234:", nil),
            ("N1234@", nil), ("N1234[", nil), ("N\u{7F}", nil), ("N\u{0}", nil), ("N1\u{0}2", nil), ("N12a", "N12A"), ("M12", "NM12"),
            ("NN", "NN"), ("n", nil), ("N1234567", nil), ("N12345678901234", nil), ("N1234567890123456789", nil),
            ("   N12345   \t  ", "N12345"), ("N12É", nil),
        ]
        for (text, expected) in cases {
            #expect(AircraftBundle.normalizedRegistration(text) == expected, "\(text.debugDescription)")
            // The same text as a string not stored inline (bridged through an array of bytes).
            let general = String(decoding: Array(text.utf8) + Array(repeating: UInt8(ascii: " "), count: 16), as: UTF8.self)
            #expect(AircraftBundle.normalizedRegistration(general) == expected, "\(general.debugDescription)")
        }
    }

    @Test("a lookup finds the registration from any accepted form, and nothing from a longer mark that shares its first bytes")
    func lookups() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        for form in ["N16", "n16", "16", " 1-6 "] { #expect(bundle.aircraft(registration: form)?.nNumber == "N16", "\(form)") }
        #expect(bundle.aircraft(registration: "N160") == nil)
        #expect(bundle.aircraft(registration: "N1") == nil)
    }
}
