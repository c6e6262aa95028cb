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

    @Test("a lookup finds the registration from any accepted form, and nothing from a longer mark that shares its first bytes")
    func lookups() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        for form in ["N16", "n16", "16", " 1-6 "] { #expect(bundle.aircraft(registration: form)?.nNumber == "N16", "\(form)") }
        #expect(bundle.aircraft(registration: "N160") == nil)
        #expect(bundle.aircraft(registration: "N1") == nil)
    }
}
