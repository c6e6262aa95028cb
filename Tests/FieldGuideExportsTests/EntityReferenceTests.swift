import Foundation
import Testing
import TestSupport

@Suite("ingest-exports: entity references are refused where the user wrote them", .serialized)
struct EntityReferenceTests {
    @Test("a declared entity in an attribute value: the file refused at its &, exit 1, the other files imported")
    func inAttribute() throws {
        let out = try TestPaths.temporaryDirectory("exports-entity").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let fixture = "Tests/Fixtures/exports/entity-in-attribute.gpx"
        let run = try TestPaths.run("ingest-exports", ["input/exports/gpx", fixture, "--output", out])
        #expect(run.status == 1)
        #expect(run.stderr.contains("ingest-exports: error: \(fixture):4:11: entity references are not expanded; refusing lat"), "\(run.stderr)")
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
        let rejects = try String(contentsOfFile: out + "/exports-rejects.csv", encoding: .utf8)
        #expect(rejects.contains("entity-in-attribute.gpx") && rejects.contains("refusing lat"))
        let observations = try String(contentsOfFile: out + "/observations.csv", encoding: .utf8)
        #expect(!observations.contains("Entity fixture point"))
    }
}
