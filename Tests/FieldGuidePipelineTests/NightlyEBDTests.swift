import FieldGuide
import FieldGuideArtifactWriter
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// The nightly with `birds/ebd/` present: aggregate-ebd computes bar charts, which replace the
/// downloaded chart of the same region in the birds artifact; the manifest says which.
@Suite("Nightly with the eBird Basic Dataset", .serialized)
struct NightlyEBDTests {
    @Test("birds/ebd/*.txt: charts computed, one replacing a download of US-NY, recorded in the manifest")
    func computedCharts() throws {
        let directory = try TestPaths.temporaryDirectory("nightly-ebd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = try OptionalSourcesTests.sources(in: directory, with: ["birds/taxonomy", "birds/ebird"])
        let fm = FileManager.default
        let ebd = sources + "/birds/ebd"
        try fm.createDirectory(atPath: ebd, withIntermediateDirectories: true)
        // The EBD and its sampling-event file side by side: the stage tells them apart by header.
        try fm.copyItem(atPath: TestPaths.packageRoot.path + "/Tests/Fixtures/birds/ebd/ebd-small.txt", toPath: ebd + "/ebd_relNov-2026.txt")
        try fm.copyItem(atPath: TestPaths.packageRoot.path + "/Tests/Fixtures/birds/ebd/ebd-sampling-small.txt", toPath: ebd + "/ebd_sampling_relNov-2026.txt")
        // A downloaded chart of the same region: the computed one takes its place.
        try fm.copyItem(atPath: sources + "/birds/ebird/barchart-fenland.txt", toPath: sources + "/birds/ebird/barchart-US-NY.txt")
        let output = directory.appendingPathComponent("out")
        let run = try OptionalSourcesTests.run(sources, output)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("[aggregate-ebd] aggregate-ebd: wrote 3 bar charts"), "\(run.stderr)")
        #expect(run.stderr.contains("[ingest-birds] ingest-birds: 3 bar charts computed from the EBD"), "\(run.stderr)")
        #expect(fm.fileExists(atPath: output.path + "/current/reports/ebd-rejects.csv"))

        let manifest = try Manifest.decode(from: try Data(contentsOf: URL(fileURLWithPath: output.path + "/current/manifest.json")))
        let birds = try #require(manifest.artifacts.first { $0.file == "birds.fgb" })
        let files = birds.sources.map(\.file)
        #expect(files.contains("aggregate-ebd/barchart-US-NY.txt") && files.contains("aggregate-ebd/barchart-CA-ON.txt"))
        #expect(files.contains("barchart-fenland.txt") && !files.contains("barchart-US-NY.txt"))
        #expect(birds.counts["barChartsComputed"] == 3 && birds.counts["barChartsReplaced"] == 1, "\(birds.counts)")

        let bundle = try BirdsBundle(path: output.path + "/current/birds.fgb")
        #expect(bundle.barChartRegions.contains("US-NY") && bundle.barChartRegions.contains("Fenland"))
        // The computed chart's sample sizes, with the sampling file's checklist that saw nothing.
        #expect(bundle.sampleSizes(region: "US-NY")?.prefix(2) == [4, 1])
    }
}
