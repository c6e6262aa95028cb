import BenchSupport
import FieldGuideBirds
import Foundation

/// Generates a world-checklist-sized bird database (11,000 species with field marks) plus
/// home data with hotspots and migration sessions, then times `SeedValidator` over them:
/// parse with line:column, decode, every rule. Target: under 1 s.
///
///     birds-bench [SPECIES=11000] [RUNS=5]
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let speciesCount = arguments.first ?? 11_000
let runs = arguments.dropFirst().first ?? 5
var rng = SplitMix64(seed: 2026)

/// A lower-case name from a number (`0` → `ba`, distinct numbers give distinct names).
func word(_ n: Int, minimum: Int = 2) -> String {
    let consonants = Array("bcdfghklmnprstvz"), vowels = Array("aeiou")
    var out = "", value = n, syllables = 0
    repeat {
        out.append(consonants[value % consonants.count])
        value /= consonants.count
        out.append(vowels[value % vowels.count])
        value /= vowels.count
        syllables += 1
    } while value > 0 || syllables < minimum
    return out
}

func quoted(_ s: String) -> String { "\"" + s + "\"" }

let shapes = ["Anatidae", "Ardeidae", "Accipitridae", "Strigidae", "Charadriidae", "Phasianidae", "Columbidae", "Psittaculidae",
              "Apodidae", "Alcedinidae", "Picidae", "Corvidae", "Muscicapidae", "Pycnonotidae", "Nectariniidae", "Passeridae_Fringillidae"]
let areas = ["Back", "Beak", "Crown", "Eye", "Facemask", "Leg", "Neck", "Tail", "Throat", "Underparts", "Wings"]
let variantNames = ["Plain", "Streaked", "Mottled", "Barred", "Spotted", "Hooked", "Conical", "Crested", "Masked", "Ringed"]
let locations = ["Urban", "Wetlands", "Himalayas", "Western Ghats", "Grassland", "Coastal", "Rainforest", "Tundra", "Savanna",
                 "Mangroves", "Farmland", "Alpine", "Steppe", "Islands", "Taiga", "Scrubland"]

var json = "{\n    \"metadata\": {\n        \"version\": \"3.0\",\n        \"total_species\": \(speciesCount),\n        \"description\": \"generated\"\n    },\n"
json += "    \"reference_data\": {\n        \"shapes\": [\n"
json += shapes.map { "            {\n                \"id\": \(quoted($0)),\n                \"name\": \(quoted($0)),\n                \"icon\": \(quoted("id_shape_" + $0.lowercased()))\n            }" }.joined(separator: ",\n")
json += "\n        ],\n        \"fieldMarks\": [\n"
var marks: [String] = [], variants: [String] = [], variantIDs: [[String]] = []
for (s, shape) in shapes.enumerated() {
    for (a, area) in areas.enumerated() {
        let markID = String(format: "fm-%02d-%02d", s, a)
        marks.append("            {\n                \"id\": \(quoted(markID)),\n                \"shapeId\": \(quoted(shape)),\n                \"area\": \(quoted(area))\n            }")
        var ids: [String] = []
        for (v, name) in variantNames.enumerated() {
            let id = "\(markID)-v\(v)"
            ids.append(id)
            variants.append("            {\n                \"id\": \(quoted(id)),\n                \"fieldMarkId\": \(quoted(markID)),\n                \"name\": \(quoted(name))\n            }")
        }
        variantIDs.append(ids)
    }
}
json += marks.joined(separator: ",\n") + "\n        ],\n        \"variants\": [\n" + variants.joined(separator: ",\n") + "\n        ]\n    },\n    \"birds\": [\n"
var birds: [String] = []
var birdIDs: [String] = []
var fieldMarkCount = 0
for i in 0..<speciesCount {
    let id = String(format: "b0000000-0000-4000-8000-%012d", i)
    birdIDs.append(id)
    let genus = word(i / 4 + 7), epithet = word(i * 7 + 3)
    let shape = rng.below(shapes.count)
    let months = (1...12).filter { _ in rng.below(4) != 0 }
    let places = (0..<(1 + rng.below(3))).map { _ in locations[rng.below(locations.count)] }
    let uniquePlaces = places.enumerated().filter { !places[..<$0.offset].contains($0.element) }.map(\.element)
    var entries: [String] = []
    for a in (0..<areas.count).filter({ _ in rng.below(3) == 0 }).prefix(5) {
        let variant = variantIDs[shape * areas.count + a][rng.below(variantNames.count)]
        entries.append("                {\n                    \"area\": \(quoted(areas[a])),\n                    \"variantId\": \(quoted(variant))\n                }")
    }
    fieldMarkCount += entries.count
    birds.append("""
            {
                "id": \(quoted(id)),
                "commonName": \(quoted(genus.capitalized + " " + epithet.capitalized + " \(i)")),
                "scientificName": \(quoted(genus.capitalized + " " + epithet)),
                "staticImageName": \(quoted("bird_\(i)")),
                "family": \(quoted(shapes[shape].components(separatedBy: "_")[0])),
                "order_name": "Passeriformes",
                "rarityLevel": \(quoted(["common", "uncommon", "rare"][rng.below(3)])),
                "shape_id": \(quoted(shapes[shape])),
                "size_category": \(rng.below(5)),
                "validLocations": [\(uniquePlaces.map(quoted).joined(separator: ", "))],
                "validMonths": [\(months.map(String.init).joined(separator: ", "))],
                "fieldMarkData": [
        \(entries.joined(separator: ",\n"))
                ]
            }
    """)
}
json += birds.joined(separator: ",\n") + "\n    ]\n}\n"

var home = "{\n    \"hotspots\": [\n"
var spots: [String] = []
var hotspotSpecies = 0
for h in 0..<1_000 {
    var list: [String] = []
    for k in 0..<40 {
        let start = 1 + rng.below(40)
        let weeks = (start...(start + rng.below(13))).map(String.init).joined(separator: ", ")
        list.append("                {\"id\": \"hs-\(h)-\(k)\", \"birdId\": \(quoted(birdIDs[rng.below(birdIDs.count)])), \"validWeeks\": [\(weeks)], \"probability\": \(rng.below(101))}")
    }
    let unique = Array(Dictionary(list.map { ($0.components(separatedBy: "\"birdId\": ")[1].prefix(40), $0) }, uniquingKeysWith: { a, _ in a }).values).sorted()
    hotspotSpecies += unique.count
    spots.append("        {\n            \"id\": \"h-\(h)\",\n            \"name\": \"Hotspot \(h)\",\n            \"lat\": \(Double(rng.below(18_000)) / 100 - 90),\n            \"lon\": \(Double(rng.below(36_000)) / 100 - 180),\n            \"speciesList\": [\n\(unique.joined(separator: ",\n"))\n            ]\n        }")
}
home += spots.joined(separator: ",\n") + "\n    ],\n    \"migration_sessions\": [\n"
var sessions: [String] = []
for m in 0..<500 {
    let start = 1 + rng.below(30), end = start + 3 + rng.below(20)
    let points = (start...end).map { "                {\"id\": \"p-\(m)-\($0)\", \"week\": \($0), \"lat\": \(Double($0)), \"lon\": \(Double(m % 180)), \"probability\": \(rng.below(101))}" }
    sessions.append("        {\n            \"id\": \"m-\(m)\",\n            \"birdId\": \(quoted(birdIDs[rng.below(birdIDs.count)])),\n            \"startWeek\": \(start),\n            \"endWeek\": \(end),\n            \"hemisphere\": \"Northern\",\n            \"trajectoryPaths\": [\n\(points.joined(separator: ",\n"))\n            ]\n        }")
}
home += sessions.joined(separator: ",\n") + "\n    ]\n}\n"

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("birds-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
try Data(json.utf8).write(to: directory.appendingPathComponent("bird_database.json"))
try Data(home.utf8).write(to: directory.appendingPathComponent("home_data.json"))

print("== Bird seed validation (\(grouped(speciesCount)) species, \(grouped(fieldMarkCount)) field marks, 1,000 hotspots with \(grouped(hotspotSpecies)) species entries, 500 migration sessions)")
print("database \(grouped(json.utf8.count)) bytes, home data \(grouped(home.utf8.count)) bytes")
var times: [Double] = []
var report: SeedValidationReport?
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    report = try SeedValidator().validate(paths: [directory.path])
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}
guard let report else { exit(1) }
let best = times.min()!, median = times.sorted()[times.count / 2]
print("validate: \(String(format: "%.3f", median)) s median, \(String(format: "%.3f", best)) s best of \(runs) (target < 1 s): \(report.errors) errors, \(report.warnings) warnings")
if report.errors + report.warnings > 0 {
    for finding in report.findings.prefix(5) { print("  " + finding.description) }
}
if median >= 1 { print("birds-bench: over the 1 s target"); exit(1) }
