@testable import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// `RegistrationRecord.info` with its shared parts (`SharedRecordCache`, `CodeValueIndex`): the
/// same record whether its approved operations were decoded now or kept from an earlier
/// lookup, field for field what the record's own properties read.
@Suite("Registration info: shared operation lists and codes")
struct RegistrationInfoTests {
    /// `model`'s fields read one by one, as an info.
    static func fieldByField(_ model: ModelRecord) -> ModelInfo {
        ModelInfo(code: model.code, manufacturer: model.manufacturer, model: model.model, aircraftType: model.aircraftType,
                  engineType: model.engineType, category: model.category, builderCertification: model.builderCertification,
                  engineCount: model.engineCount, seatCount: model.seatCount, weightClass: model.weightClass,
                  cruiseSpeedMPH: model.cruiseSpeedMPH, typeCertificateDataSheet: model.typeCertificateDataSheet,
                  typeCertificateHolder: model.typeCertificateHolder)
    }

    @Test("input/faa: every registration's info, twice and in a fresh bundle, equals its fields read one by one")
    func everyRegistration() throws {
        let directory = try TestPaths.temporaryDirectory("registration-info")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let bundle = try AircraftBundle(path: path), fresh = try AircraftBundle(path: path)
        var models = 0
        for row in 0..<bundle.registrationCount {
            let record = RegistrationRecord(bundle: bundle, row: row)
            let first = record.info, second = record.info
            #expect(first == second && first == fresh.aircraft(registration: record.nNumber)?.info)
            #expect(first.model == record.model.map(Self.fieldByField) && first.approvedOperations == record.approvedOperations)
            #expect(first.engine?.code == record.engine?.code && first.engine?.engineType == record.engine?.engineType)
            #expect(first.status == record.status && first.region == record.region && first.registrantType == record.registrantType)
            for (value, table) in [(first.status, AircraftSchema.CodeTable.status), (first.region, .region), (first.aircraftType, .aircraftType)] {
                if let value { #expect(value.name == bundle.displayName(table, value.code), "\(table) \(value.code)") }
            }
            if first.model != nil { models += 1 }
        }
        #expect(models > 10 && bundle.operationLists.count > 0)
    }

    @Test("the cache keeps at most its limit and decodes the rest each time")
    func cacheLimit() {
        let cache = SharedRecordCache<Int, String>(limit: 2)
        var decoded = 0
        for key in [1, 2, 3, 1, 2, 3, 3] { _ = cache.value(for: key) { decoded += 1; return "\(key)" } }
        #expect(cache.count == 2 && decoded == 5)   // 1 and 2 kept; 3 decoded each of its three times
        #expect(cache.value(for: 3) { "3" } == "3")
    }

    @Test("the code index: found by table and id, a later value replaces an earlier one, unknown codes are nil")
    func codeIndex() {
        var index = CodeValueIndex(capacity: 40)
        for id in UInt32(1)...20 {
            index.insert(.status, id: id, CodeValue(code: "\(id)", name: "status \(id)"))
            index.insert(.region, id: id, CodeValue(code: "\(id)", name: "region \(id)"))
        }
        index.insert(.status, id: 7, CodeValue(code: "7", name: "later"))
        #expect(index.value(.status, id: 3)?.name == "status 3" && index.value(.region, id: 3)?.name == "region 3")
        #expect(index.value(.status, id: 7)?.name == "later" && index.value(.region, id: 7)?.name == "region 7")
        #expect(index.value(.status, id: 21) == nil && index.value(.aircraftType, id: 3) == nil)
        #expect(Set(AircraftSchema.CodeTable.allCases.map(\.position)).count == AircraftSchema.CodeTable.allCases.count)
    }
}
