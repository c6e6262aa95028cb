@testable import FieldGuideExports
import Testing

@Suite("Coordinates in observations.csv")
struct DegreesFormatTests {
    @Test("at most 7 fractional digits, no trailing zeros, no negative zero", arguments: [
        (87.354866333, "87.3548663"), (-179.99244690, "-179.9924469"), (13.3693672, "13.3693672"),
        (1.5, "1.5"), (-2.0, "-2"), (0.0, "0"), (-0.00000001, "0"), (0.00000006, "0.0000001"), (59.000001, "59.000001"),
    ])
    func degrees(value: Double, text: String) {
        #expect(ObservationCSV.degrees(value) == text)
    }
}
