import BenchSupport
import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideEmit
import Foundation

/// Builds a world-checklist-sized birds artifact (11,000 species with field marks, months and
/// locations; 1,000 hotspots with weekly presence) through `BirdsArtifactBuilder`, then times
/// opening it and the queries apps make. Targets: `identify` under 1 ms, a region/month lookup
/// under 5 µs.
///
///     birds-artifact-bench [SPECIES=11000] [QUERIES=2000]
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let speciesCount = arguments.first ?? 11_000
let queryCount = arguments.dropFirst().first ?? 2_000
var rng = SplitMix64(seed: 2026)

let shapes = ["Anatidae", "Ardeidae", "Accipitridae", "Strigidae", "Charadriidae", "Phasianidae", "Columbidae", "Psittaculidae",
              "Apodidae", "Alcedinidae", "Picidae", "Corvidae", "Muscicapidae", "Pycnonotidae", "Nectariniidae", "Passeridae_Fringillidae"]
let areas = ["Back", "Beak", "Crown", "Eye", "Facemask", "Leg", "Neck", "Tail", "Throat", "Underparts", "Wings"]
let locations = ["Urban", "Wetlands", "Himalayas", "Western Ghats", "Grassland", "Coastal", "Rainforest", "Tundra", "Savanna",
                 "Mangroves", "Farmland", "Alpine", "Steppe", "Islands", "Taiga", "Scrubland"]

func name(_ n: Int) -> String {
    let consonants = Array("bcdfghklmnprstvz"), vowels = Array("aeiou")
    var out = "", value = n
    repeat {
        out.append(consonants[value % consonants.count]); value /= consonants.count
        out.append(vowels[value % vowels.count]); value /= vowels.count
    } while value > 0 || out.count < 4
    return out
}

var input = BirdsBuildInput()
input.shapes = shapes.map { ($0, $0, "id_shape_" + $0.lowercased()) }
var variantIDs: [[String]] = []
for (s, shape) in shapes.enumerated() {
    for (a, area) in areas.enumerated() {
        let ids = (0..<10).map { String(format: "v-%02d-%02d-%d", s, a, $0) }
        variantIDs.append(ids)
        for id in ids { input.variants.append(.init(id: id, fieldMarkID: String(format: "fm-%02d-%02d", s, a), shapeID: shape, area: area, name: id)) }
    }
}
for i in 0..<speciesCount {
    let shape = rng.below(shapes.count)
    let months = rng.chance(perMille: 20) ? [] : (1...12).filter { _ in rng.below(4) != 0 }
    var places: [String] = []
    if !rng.chance(perMille: 20) { for _ in 0..<(1 + rng.below(3)) { let p = rng.pick(locations); if !places.contains(p) { places.append(p) } } }
    var marks: [(area: String, variantID: String)] = []
    for a in 0..<areas.count where rng.below(3) == 0 && marks.count < 5 {
        marks.append((areas[a], variantIDs[shape * areas.count + a][rng.below(10)]))
    }
    input.species.append(.init(birdID: String(format: "b-%06d", i), speciesCode: "sp\(i)", commonName: name(i + 1000).capitalized + " \(name(i * 7 + 3))",
                               scientificName: name(i / 4 + 7).capitalized + " " + name(i * 13 + 5), family: shapes[shape], shapeID: shapes[shape],
                               sizeCategory: rng.below(5), months: months, locations: places, marks: marks))
}
var hotspotEntries = 0
for h in 0..<1_000 {
    var species: [(birdID: String, probability: Int, weeks: [Int])] = []
    var seen = Set<Int>()
    for _ in 0..<40 {
        let bird = rng.below(speciesCount)
        guard seen.insert(bird).inserted else { continue }
        let start = 1 + rng.below(40)
        species.append((String(format: "b-%06d", bird), rng.below(101), Array(start...(start + rng.below(13)))))
    }
    hotspotEntries += species.count
    input.hotspots.append(.init(id: "h-\(h)", name: "Hotspot \(h)", latitude: Double(rng.below(14_000)) / 100 - 60,
                                longitude: Double(rng.below(36_000)) / 100 - 180, species: species))
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func summary(_ samples: [Double]) -> (median: Double, p99: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
}
func show(_ ns: Double) -> String { ns >= 1_000_000 ? String(format: "%.2f ms", ns / 1e6) : ns >= 1_000 ? String(format: "%.2f µs", ns / 1e3) : String(format: "%.0f ns", ns) }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("birds-artifact-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("birds.fgb").path
let buildStart = now()
input.linkSpeciesAlone()   // what ingest-birds links without a taxonomy: a taxon and names per species
let (artifact, counts) = BirdsArtifactBuilder(input).build()
let (size, _) = try artifact.write(to: path)
let buildNs = Double(now() - buildStart)

print("== Birds artifact (\(grouped(speciesCount)) species, 1,000 hotspots with \(grouped(hotspotEntries)) species entries, \(grouped(counts["regionWeekEntries"] ?? 0)) region×week entries)")
print("build + write: \(show(buildNs)); artifact \(grouped(size)) bytes")

var opens: [Double] = [], fullOpens: [Double] = []
for _ in 0..<200 {
    var t = now(); _ = try BirdsBundle(path: path, verification: .headerOnly); opens.append(Double(now() - t))
    t = now(); _ = try BirdsBundle(path: path, verification: .full); fullOpens.append(Double(now() - t))
}
print("open .headerOnly: \(show(summary(opens).median)) median; .full: \(show(summary(fullOpens).median)) median")

let birds = try BirdsBundle(path: path)
var queries: [BirdIdentificationQuery] = []
for _ in 0..<queryCount {
    let shape = rng.below(shapes.count)
    let variants = (0..<rng.below(4)).map { _ in variantIDs[shape * areas.count + rng.below(areas.count)][rng.below(10)] }
    queries.append(.init(shape: rng.chance(perMille: 800) ? shapes[shape] : nil, size: rng.chance(perMille: 800) ? rng.below(5) : nil,
                         location: rng.chance(perMille: 700) ? rng.pick(locations) : nil, month: rng.chance(perMille: 700) ? 1 + rng.below(12) : nil,
                         variants: variants))
}
var identifyTimes: [Double] = [], candidates = 0
for (i, query) in queries.enumerated() {
    let t = now()
    let found = birds.identify(query)
    let elapsed = Double(now() - t)
    if i >= 50 { identifyTimes.append(elapsed) }   // the first calls warm the caches
    candidates += found.count
}
let identify = summary(identifyTimes)
print("identify: \(show(identify.median)) median, \(show(identify.p99)) p99 (target < 1 ms); \(candidates / queries.count) candidates on average")

var rowTimes: [Double] = [], recordTimes: [Double] = [], found = 0
for i in 0..<20_000 {
    let region = locations[i % locations.count], month = 1 + (i / locations.count) % 12
    var t = now()
    let rows = birds.presentSpecies(inRegion: region, month: month)
    let count = rows.count
    rowTimes.append(Double(now() - t))
    found += count
    if i % 10 == 0 {
        t = now()
        let result = birds.species(inRegion: region, month: month)
        recordTimes.append(Double(now() - t))
        found += result.present.count - rows.count
    }
}
let rowLookup = summary(Array(rowTimes.dropFirst(1_000))), recordLookup = summary(recordTimes)
print("presentSpecies(inRegion:month:): \(show(rowLookup.median)) median, \(show(rowLookup.p99)) p99 (target < 5 µs); \(found / rowTimes.count) species per lookup")
print("species(inRegion:month:) with present + unknown records: \(show(recordLookup.median)) median")

var nearTimes: [Double] = []
for _ in 0..<2_000 {
    let t = now()
    _ = try birds.species(near: (Double(rng.below(12_000)) / 100 - 60, Double(rng.below(36_000)) / 100 - 180), radiusKm: 300, week: 1 + rng.below(53))
    nearTimes.append(Double(now() - t))
}
print("species(near:radiusKm: 300, week:): \(show(summary(nearTimes).median)) median")
if identify.median >= 1_000_000 || rowLookup.median >= 5_000 { print("birds-artifact-bench: over target"); exit(1) }
