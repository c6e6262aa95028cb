@testable import FieldGuide
import FieldGuideArtifact
import FieldGuideFAA
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

    /// `engine`'s fields read one by one, as an info.
    static func fieldByField(_ e: EngineRecord) -> EngineInfo {
        EngineInfo(code: e.code, manufacturer: e.manufacturer, model: e.model, engineType: e.engineType,
                   horsepower: e.horsepower, thrustPounds: e.thrustPounds)
    }

    /// `record`'s fields read one by one, as an info (each in its own order, not `.info`'s).
    static func fieldByField(_ r: RegistrationRecord) -> RegistrationInfo {
        RegistrationInfo(
            nNumber: r.nNumber, serialNumber: r.serialNumber, modelCode: r.modelCode, engineCode: r.engineCode,
            model: r.model.map(fieldByField), engine: r.engine.map(fieldByField), yearManufactured: r.yearManufactured,
            registrantType: r.registrantType, ownerWithheld: r.ownerWithheld, name: r.name, street: r.street, street2: r.street2,
            city: r.city, state: r.state, zip: r.zip, region: r.region, county: r.county, country: r.country,
            lastActionDate: r.lastActionDate, certificateIssueDate: r.certificateIssueDate, certification: r.certification,
            airworthinessClass: r.airworthinessClass, approvedOperations: r.approvedOperations, aircraftType: r.aircraftType,
            engineType: r.engineType, status: r.status, modeSHex: r.modeSHex, fractionalOwner: r.fractionalOwner,
            airworthinessDate: r.airworthinessDate, otherNames: r.otherNames, expirationDate: r.expirationDate,
            uniqueID: r.uniqueID, kitManufacturer: r.kitManufacturer, kitModel: r.kitModel)
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
            #expect(first == Self.fieldByField(record) && first == Self.fieldByField(fresh.aircraft(registration: record.nNumber)!))
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

    @Test("the real MASTER sample: every registration's info equals its fields read one by one")
    func realSample() throws {
        try withSharedSampleBundle("registration-info-real") { bundle in
            var withModel = 0, withEngine = 0
            for row in 0..<bundle.registrationCount {
                let found = try #require(bundle.aircraft(registration: RegistrationRecord(bundle: bundle, row: row).nNumber))
                let info = found.info
                #expect(info == Self.fieldByField(found), "row \(row)")
                withModel += info.model == nil ? 0 : 1
                withEngine += info.engine == nil ? 0 : 1
            }
            // The sample of ACFTREF holds the models of a few of the sample MASTER's rows.
            #expect(bundle.registrationCount > 300 && withModel > 10 && withEngine > 200, "\(bundle.registrationCount) \(withModel) \(withEngine)")
        }
    }

    @Test("the real MASTER sample's pool: every string, padded or not, is String(decoding:)'s")
    func realPoolStrings() throws {
        try withSharedSampleBundle("registration-info-pool") { bundle in
            let pool = bundle.strings
            var short = 0
            for id in 0..<UInt32(pool.count) {
                let bytes = pool.bytes(id)
                #expect(pool.string(id) == String(decoding: bytes, as: UTF8.self), "id \(id)")
                short += bytes.count <= 15 ? 1 : 0
            }
            #expect(pool.count > 1_000 && short > 100, "\(pool.count) strings, \(short) short")
        }
    }

    @Test("the cache keeps at most its limit and decodes the rest each time")
    func cacheLimit() {
        let cache = SharedRecordCache<String>(limit: 2)
        var decoded = 0
        for key: UInt32 in [1, 2, 3, 1, 2, 3, 3] { _ = cache.value(for: key) { decoded += 1; return "\(key)" } }
        #expect(cache.count == 2 && decoded == 5)   // 1 and 2 kept; 3 decoded each of its three times
        #expect(cache.value(for: 3) { "3" } == "3")
    }

    @Test("the cache's table grows past its first slots and keeps every id's own value, 0 and UInt32.max too")
    func cacheGrowth() {
        let cache = SharedRecordCache<String>(limit: 1_000)
        // Ids that share low bits, and the ends of the range.
        let ids: [UInt32] = [0, UInt32.max, UInt32.max - 1] + (1...997).map { UInt32($0) << 20 }
        var decoded = 0
        for id in ids + ids.reversed() { #expect(cache.value(for: id) { decoded += 1; return "v\(id)" } == "v\(id)") }
        #expect(cache.count == 1_000 && decoded == 1_000)
        #expect(cache.value(for: 12_345) { "new" } == "new" && cache.count == 1_000)   // past the limit: decoded, not kept
        #expect(ids.allSatisfy { id in cache.value(for: id) { "decoded again" } == "v\(id)" })
    }

    @Test("the code index: found by table and id, a later value replaces an earlier one, unknown codes are nil")
    func codeIndex() {
        var index = CodeValueIndex(capacity: 40)
        for id in UInt32(1)...20 {
            index.insert(.status, id: id, CodeValue(code: "\(id)", name: "status \(id)"))
            index.insert(.region, id: id, CodeValue(code: "\(id)", name: "region \(id)"))
        }
        index.insert(.status, id: 7, CodeValue(code: "7", name: "later"))   // full, but a code it holds is replaced
        index.insert(.status, id: 99, CodeValue(code: "99", name: "past the capacity"))
        #expect(index.value(.status, id: 99) == nil)
        #expect(index.value(.status, id: 3)?.name == "status 3" && index.value(.region, id: 3)?.name == "region 3")
        #expect(index.value(.status, id: 7)?.name == "later" && index.value(.region, id: 7)?.name == "region 7")
        #expect(index.value(.status, id: 21) == nil && index.value(.aircraftType, id: 3) == nil)
        #expect(Set(AircraftSchema.CodeTable.allCases.map(\.position)).count == AircraftSchema.CodeTable.allCases.count)
    }

    @Test("code values are interned, their names immortal strings, equal to the tables', and outlive the bundle")
    func immortalCodeNames() throws {
        let directory = try TestPaths.temporaryDirectory("registration-info-immortal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        var names: [(CodeValue, AircraftSchema.CodeTable)] = []
        do {
            let bundle = try AircraftBundle(path: path)
            // The tables' values, as the status records and unlisted ids find them (`codesByText`).
            let status = bundle.codeTable(.status)
            #expect(status.count > 3 && status.allSatisfy { $0.isInterned && $0.name == bundle.displayName(.status, $0.code) })
            for row in 0..<bundle.registrationCount {
                let info = RegistrationRecord(bundle: bundle, row: row).info
                for (value, table) in [(info.aircraftType, AircraftSchema.CodeTable.aircraftType), (info.status, .status),
                                       (info.model?.builderCertification, .builderCertification), (info.model?.weightClass, .weightClass)] {
                    guard let value else { continue }
                    #expect(value.name == bundle.displayName(table, value.code), "\(table) \(value.code)")
                    names.append((value, table))
                }
            }
        }
        // The bundle is gone and its file unmapped; the values are the registry's (`CodeValue`),
        // their names the store's, not the file's.
        #expect(names.allSatisfy { $0.0.isInterned })
        let long = names.filter { ($0.0.name?.utf8.count ?? 0) > 15 }
        #expect(long.count > 10)
        for (value, _) in long {
            #expect(unsafeBitCast(value.name!, to: (UInt64, UInt64).self).1 >> 60 == 0x8, "\(value.name!) is immortal")
            #expect(value.name!.uppercased().count == value.name!.count)
        }
        let tables = [FAACodeTables.aircraftType, FAACodeTables.status, FAACodeTables.builderCertification, FAACodeTables.weightClass]
        #expect(Set(long.map { $0.0.name! }).isSubset(of: Set(tables.flatMap { $0.entries.map(\.name) })))
    }
}
