import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI
import Testing
import TestSupport

@Suite("One mapping from a stage's errors to its exit status and message")
struct ExitStatusTests {
    @Test("StageFailure keeps its status; a LocatedError goes by its kind; an ArtifactError is 2 only for I/O; anything else 2")
    func statuses() {
        #expect(StageExit(for: StageFailure(.dataRejected, "3 of 5 files could not be read")) == .dataRejected)
        #expect(StageExit(for: StageFailure(.usageOrIO, "no artifact in common")) == .usageOrIO)
        let usageOrIO: Set<LocatedError.Kind> = [.unreadable, .unwritable, .missingFile, .usage, .resources]
        for kind in LocatedError.Kind.allCases {
            let status = StageExit(for: LocatedError(kind, file: "f", message: "m"))
            #expect(status == (usageOrIO.contains(kind) ? .usageOrIO : .dataRejected), "\(kind)")
        }
        #expect(StageExit(for: ArtifactError.io(path: "a.fgb", reason: "No such file or directory")) == .usageOrIO)
        for corrupt: ArtifactError in [
            .badMagic(path: "a.fgb"), .wrongKind(path: "a.fgb", expected: "ACFT", found: "BIRD"),
            .unsupportedVersion(path: "a.fgb", major: 9, minor: 0, supportedMajor: 1),
            .truncated(path: "a.fgb", expectedBytes: 64, foundBytes: 8),
            .checksumMismatch(path: "a.fgb", section: "REGS", expected: 1, found: 2),
            .malformedSection(path: "a.fgb", section: "REGS", reason: "too short"),
        ] {
            #expect(StageExit(for: corrupt) == .dataRejected, "\(corrupt)")
        }
        struct Unknown: Error {}
        #expect(StageExit(for: Unknown()) == .usageOrIO)
    }

    @Test("the message is the error's own description; a Foundation error in the system's words")
    func messages() {
        let located = LocatedError(.wrongHeader, file: "MASTER.txt", line: 1, expected: "N-NUMBER,…", found: "a,b", message: "not the MASTER layout")
        #expect(StageExit.message(for: located) == "MASTER.txt:1: not the MASTER layout (expected N-NUMBER,…; found a,b)")
        #expect(StageExit.message(for: StageFailure(.dataRejected, "12 errors, 3 warnings")) == "12 errors, 3 warnings")
        #expect(StageExit.message(for: ArtifactError.badMagic(path: "x.fgb")).hasPrefix("x.fgb: not a FieldGuide artifact"))
        let missing = CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/nowhere"])
        #expect(StageExit.message(for: missing) == "No such file or directory")
    }

    @Test("Foundation errors become located errors: a read in the system's words, a decoding error by its path")
    func foundationErrors() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/x.json"))
            Issue.record("expected a read error")
        } catch {
            let unread = LocatedError("/nonexistent/x.json", failed: error)
            #expect(unread.kind == .missingFile && unread.description == "/nonexistent/x.json: No such file or directory")
        }

        #expect(decoding(#"{"status": 1, "sources": []}"#) == "r.json: status: wrong type in the report (expected a string; found number)")
        #expect(decoding(#"{"status": "ok", "sources": ["x"]}"#) == "r.json: sources[0]: wrong type in the report (expected an integer; found a string)")
        #expect(decoding(#"{"sources": []}"#) == "r.json: status: missing key in the report")
        #expect(decoding("{") == "r.json: the report is not valid JSON")
    }
}

/// A report shape to decode, and what a decoding failure of `json` says as a located error.
private struct Report: Decodable {
    var status: String
    var sources: [Int]
}

private func decoding(_ json: String) -> String? {
    do {
        _ = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
        return nil
    } catch {
        return LocatedError(decoding: error, file: "r.json", in: "the report").description
    }
}
