@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// The pipeline runs its stages with glibc's huge-page tunable added to its own environment,
/// unless the operator set that tunable; other tunables and variables pass through.
@Suite("Stage environment: glibc's huge pages", .serialized)
struct StageEnvironmentTests {
    @Test("the tunable is added after the operator's others, and an operator's own setting of it stands")
    func tunables() {
        let key = StageEnvironment.tunablesVariable
        #expect(StageEnvironment.forStages([:])[key] == "glibc.malloc.hugetlb=1")
        #expect(StageEnvironment.forStages([key: ""])[key] == "glibc.malloc.hugetlb=1")
        #expect(StageEnvironment.forStages([key: "glibc.malloc.arena_max=2", "TZ": "UTC"])
            == [key: "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", "TZ": "UTC"])
        #expect(StageEnvironment.forStages([key: "glibc.malloc.hugetlb=0"])[key] == "glibc.malloc.hugetlb=0")
        #expect(StageEnvironment.forStages([key: "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2"])[key]
            == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2")
        // A name that only contains the tunable's is another tunable.
        #expect(StageEnvironment.forStages([key: "x.glibc.malloc.hugetlb=0"])[key] == "x.glibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1")
    }

    static let yaml = """
        name: t
        stages:
          - name: env
            tool: tunables
            outputs: [env.txt]
            args: ["{out}/env.txt"]
        publish:
          artifacts: [env/env.txt]
        """

    @Test("a stage run by `pipeline run` sees the tunable; with the operator's own, that one", arguments: [
        ("", "glibc.malloc.hugetlb=1"),
        ("glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=0"),
        ("glibc.malloc.arena_max=2", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"),
    ])
    func stageSeesIt(own: String, expected: String) throws {
        let p = try ScriptPipeline(yaml: Self.yaml, tools: ["tunables": "printf '%s\\n' \"$GLIBC_TUNABLES\" > \"$1\"\n"])
        defer { p.remove() }
        let result = try TestPaths.run(program: TestPaths.executable("pipeline"),
                                       ["run", p.file, "--output", p.output, "--bin", p.bin, "--progress", "plain"],
                                       environment: ["GLIBC_TUNABLES": own])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: p.output + "/current/env.txt", encoding: .utf8) == expected + "\n")
    }
}
