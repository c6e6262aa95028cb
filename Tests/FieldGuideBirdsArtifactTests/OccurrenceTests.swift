@testable import FieldGuide
import Foundation
import Testing
import TestSupport

/// One species-by-region/season answer over every loaded source, on the real artifact
/// (SkyTrails seeds, the Svalbard bar chart, Status & Trends runs).
@Suite("Occurrence: every source's word on a region and period")
struct OccurrenceTests {
    @Test("Svalbard in July: the bar chart makes Ivory Gull present, with the source and its frequency")
    func svalbardJuly() throws {
        guard let birds = RealBirds.built?.bundle else { return }
        // The seed lists alone say nothing about Svalbard (the old answer was "0 present").
        #expect(birds.species(inRegion: "Svalbard", month: 7).present.isEmpty)
        let july = birds.occurrence(inRegion: "Svalbard", month: 7)
        #expect(july.sources.contains(.barChart))
        let gull = try #require(july.present.first { $0.commonName == "Ivory Gull" })
        let chart = try #require(gull.evidence.first { $0.source == .barChart })
        #expect(chart.says == .present)
        // July's four periods in the real chart: the highest is above 0.09.
        #expect((chart.frequency ?? 0) > 0.09)
        #expect(birds.frequencies(of: "Ivory Gull", region: "Svalbard").map { $0[24..<28].max()! } == chart.frequency)
        // Status & Trends annotates the gull's season but never decides presence.
        #expect(gull.evidence.contains { $0.source == .seasons })
        // Absent is kept apart from unknown: charted taxa nobody reported in July.
        #expect(!july.absent.isEmpty)
        #expect(july.absent.allSatisfy { $0.evidence.contains { $0.source == .barChart && $0.frequency == 0 } })
        #expect(Set(july.present.map(\.speciesCode)).isDisjoint(with: july.absent.map(\.speciesCode)))
    }

    @Test("seed lists: present and unknown as before, each naming the seed list as its source")
    func seedRegions() throws {
        guard let birds = RealBirds.built?.bundle else { return }
        let july = birds.occurrence(inRegion: "Urban", month: 7)
        #expect(july.present.map(\.commonName).sorted() == birds.species(inRegion: "Urban", month: 7).present.map(\.commonName).sorted())
        #expect(july.present.allSatisfy { $0.evidence.contains { $0.source == .seedList && $0.says == .present } })
        #expect(july.unknown.map(\.commonName) == ["Amur Falcon"])
        #expect(july.absent.isEmpty)
        // A region no source knows: nothing present; the bird with no locations stays unknown.
        let nowhere = birds.occurrence(inRegion: "Atlantis", month: 7)
        #expect(nowhere.present.isEmpty && nowhere.absent.isEmpty)
        #expect(nowhere.unknown.map(\.commonName) == ["Amur Falcon"])
    }

    @Test("a week maps to the bar-chart period holding its first day")
    func weekPeriods() {
        #expect(BirdsBundle.barChartPeriod(week: 1) == 1)      // 1 January
        #expect(BirdsBundle.barChartPeriod(week: 2) == 2)      // 8 January
        #expect(BirdsBundle.barChartPeriod(week: 5) == 4)      // 29 January
        #expect(BirdsBundle.barChartPeriod(week: 27) == 25)    // 2 July
        #expect(BirdsBundle.barChartPeriod(week: 53) == 48)    // 31 December
    }

    @Test("fieldguide species --region Svalbard --month 7 names the bar chart and the gull")
    func command() throws {
        guard let built = RealBirds.built else { return }
        let run = try TestPaths.run("fieldguide", ["species", "--region", "Svalbard", "--month", "7", "--bundle", built.bundle.path])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("78 present in Svalbard, month 7 (from seed list, bar chart, status and trends)"))
        #expect(run.stdout.contains("Ivory Gull (Pagophila eburnea) [common]: bar chart: frequency up to 0.117 (2,118 checklists in 4 periods); status and trends: breeding"))
        #expect(run.stdout.contains("51 absent (on the bar chart, none reported in the period)"))
    }
}
