import FieldGuideCSV
@testable import FieldGuideExports
import Testing

@Suite("Coordinates in observations.csv")
struct DegreesFormatTests {
    @Test("at most 7 fractional digits, no trailing zeros, no negative zero", arguments: [
        (87.354866333, "87.3548663"), (-179.99244690, "-179.9924469"), (13.3693672, "13.3693672"),
        (1.5, "1.5"), (-2.0, "-2"), (0.0, "0"), (-0.00000001, "0"), (0.00000006, "0.0000001"), (59.000001, "59.000001"),
        (-0.5, "-0.5"), (180.0, "180"), (-180.0, "-180"), (0.0000123, "0.0000123"), (-45.0000001, "-45.0000001"),
        // Past a coordinate's range (no reader gives one): more integer digits, still in the buffer.
        (99_999_999.125, "99999999.125"),
    ])
    func degrees(value: Double, text: String) {
        var writer = CSVWriter()
        ObservationCSV.writeDegrees(value, to: &writer)
        writer.endRecord()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text + "\n")
    }
}
