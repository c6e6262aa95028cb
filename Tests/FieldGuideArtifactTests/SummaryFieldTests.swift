import FieldGuideArtifact
import Testing

/// `RegistrationSummaries.field(_:at:)` reads every field of summaries of every length (inline or
/// not), and clamps a summary that runs past the data's end.
@Suite("Registration summary fields: every length, and the data's end")
struct SummaryFieldTests {
    /// 40 summaries of seven fields each (lengths 0-254 and "not inline"), their section bytes
    /// and the fields each should read (nil: not inline).
    static func section() -> (bytes: [UInt8], expected: [[[UInt8]?]]) {
        var data: [UInt8] = [], starts: [UInt32] = [], expected: [[[UInt8]?]] = []
        for row in 0..<40 {
            starts.append(UInt32(data.count))
            var fields: [[UInt8]?] = []
            for field in 0..<AircraftSchema.SummaryField.allCases.count {
                if (row + field) % 11 == 0 {
                    data.append(RegistrationSummaries.notInline)
                    fields.append(nil)
                    continue
                }
                let length = (row * 37 + field * 53) % 255
                let bytes = (0..<length).map { UInt8(0x41 + ($0 + row) % 26) }
                data.append(UInt8(length))
                data += bytes
                fields.append(bytes)
            }
            expected.append(fields)
        }
        let offsets = starts.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        return (offsets + data, expected)
    }

    @Test("every field of every summary, then starts at and near the end")
    func everyField() throws {
        let (bytes, expected) = Self.section()
        try bytes.withUnsafeBytes { section in
            let summaries = try RegistrationSummaries(section, rows: expected.count, tag: FourCC("RSUM"), path: "test")
            for (row, fields) in expected.enumerated() {
                for field in AircraftSchema.SummaryField.allCases {
                    let read = summaries.field(field, at: summaries.start(row)).map(Array.init)
                    #expect(read == fields[field.rawValue], "row \(row), \(field)")
                }
            }
            // A start past the end and one whose lengths run past it read as empty, never outside.
            #expect(summaries.field(.modeSHex, at: section.count)?.count == 0)
            #expect((summaries.field(.name, at: section.count - 40 * 4 - 2)?.count ?? 0) <= 1)
        }
    }
}
