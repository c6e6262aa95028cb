import Foundation
import Testing
import TestSupport

@Suite("A mistyped option is named, with the closest one")
struct MistypedOptionTests {
    @Test("ingest-faa --ouput: the mistyped option, not 'missing --output'; fieldguide aircraft --bundel")
    func mistyped() throws {
        let faa = try TestPaths.run("ingest-faa", ["input/faa", "--ouput", "/tmp/never-written"])
        #expect(faa.status == 2)
        #expect(faa.stderr.contains("Error: unknown option '--ouput'; did you mean '--output'?"), "\(faa.stderr)")
        #expect(faa.stderr.contains("Usage: ingest-faa"))
        let query = try TestPaths.run("fieldguide", ["aircraft", "N90", "--bundel", "x"])
        #expect(query.status == 2 && query.stderr.contains("did you mean '--bundle'?"), "\(query.stderr)")
        #expect(query.stderr.contains("See 'fieldguide aircraft --help'"))
        // Known options are left to the command (a valid run is unaffected).
        #expect(try TestPaths.run("ingest-faa", ["--help"]).status == 0)
    }
}
