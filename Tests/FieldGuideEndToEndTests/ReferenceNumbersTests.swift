@testable import FieldGuideEmit
import Testing

/// The reference data's numbers kept compact (`ReferenceData.ModelNumbers`, `EngineNumbers`):
/// what the tables read from them is what they read from the `Int?`s before.
@Suite("Reference data: numbers kept compact")
struct ReferenceNumbersTests {
    /// What a table took from an `Int?`: nothing when blank or negative, else clamped to `UInt32`.
    static func taken(_ number: Int?) -> Int? {
        number.flatMap { $0 >= 0 ? Int(UInt32(clamping: $0)) : nil }
    }

    static let samples: [Int?] = [nil, -1, Int.min, 0, 1, 254, 255, 65_534, 65_535, Int(UInt32.max) - 1, Int(UInt32.max), Int.max]

    @Test("a model's three numbers and an engine's two: blank, negative, zero, at each clamp, past UInt32")
    func everyEdge() {
        for a in Self.samples {
            for b in Self.samples {
                for c in [nil, 7, -3, Int.max] as [Int?] {
                    let model = AircraftArtifactBuilder.ReferenceData.ModelNumbers(engineCount: a, seatCount: b, cruiseSpeed: c)
                    #expect(model.engineCount == Self.taken(a) && model.seatCount == Self.taken(b) && model.cruiseSpeed == Self.taken(c),
                            "\(String(describing: a)) \(String(describing: b)) \(String(describing: c))")
                }
                let engine = AircraftArtifactBuilder.ReferenceData.EngineNumbers(horsepower: a, thrust: b)
                #expect(engine.horsepower == Self.taken(a) && engine.thrust == Self.taken(b))
            }
        }
        #expect(MemoryLayout<AircraftArtifactBuilder.ReferenceData.ModelNumbers>.stride == 16)
    }
}
