import FieldGuideBirds
import BenchSupport

/// One generated taxon as an EBD row names it.
struct GeneratedTaxon {
    var order: Int
    var category: String
    var commonName: String
    var scientificName: String
    var subspeciesCommon = ""
    var subspeciesScientific = ""
}

/// A generated place: country, state and county with their codes.
struct GeneratedPlace {
    var country: String, countryCode: String, state: String, stateCode: String, county: String, countyCode: String
    var latitude: Double, longitude: Double
}

/// The generated taxa and places, and which taxa a checklist reports.
struct GeneratedWorld {
    var taxa: [GeneratedTaxon] = []
    var places: [GeneratedPlace] = []
    /// Per place, a weight per taxon (a Zipf-like rank order of its own).
    var weights: [[Int]] = []

    static let adjectives = ["Rufous", "Gray", "Olive", "Spotted", "Lesser", "Greater", "Black-throated", "Yellow-rumped",
                             "Northern", "Southern", "Crested", "Plain", "Streaked", "Chestnut", "Pale", "Red-eyed",
                             "White-winged", "Dusky", "Ashy", "Golden"]
    static let nouns = ["Warbler", "Flycatcher", "Sparrow", "Tanager", "Vireo", "Wren", "Thrush", "Hawk", "Gull", "Tern",
                        "Duck", "Heron", "Woodpecker", "Finch", "Swallow", "Owl", "Dove", "Jay", "Kingbird", "Sandpiper", "Plover"]
    static let states: [(String, String, String, String, Double, Double)] = [
        ("United States", "US", "New York", "US-NY", 42.9, -75.5), ("United States", "US", "California", "US-CA", 37.2, -119.4),
        ("United States", "US", "Texas", "US-TX", 31.0, -99.9), ("United States", "US", "Florida", "US-FL", 28.6, -82.4),
        ("United States", "US", "Washington", "US-WA", 47.4, -120.5), ("Canada", "CA", "Ontario", "CA-ON", 49.3, -84.5),
        ("Canada", "CA", "British Columbia", "CA-BC", 53.7, -127.6), ("Mexico", "MX", "Chiapas", "MX-CHP", 16.5, -92.4),
        ("Mexico", "MX", "Yucatán", "MX-YUC", 20.7, -89.1),
    ]

    init(rng: inout SplitMix64) {
        var order = 100
        for noun in Self.nouns {
            for adjective in Self.adjectives where rng.chance(perMille: 850) {
                order += 7
                let name = "\(adjective) \(noun)", scientific = "Genus\(noun.lowercased()) \(adjective.lowercased().filter(\.isLetter))"
                taxa.append(GeneratedTaxon(order: order, category: "species", commonName: name, scientificName: scientific))
                if rng.chance(perMille: 120) {
                    for (i, form) in ["Eastern", "Western"].enumerated() {
                        taxa.append(GeneratedTaxon(order: order + 1 + i, category: "issf", commonName: name, scientificName: scientific,
                                                   subspeciesCommon: "\(name) (\(form))", subspeciesScientific: "\(scientific) \(form.lowercased())ensis"))
                    }
                }
            }
            let last = taxa.filter { $0.category == "species" }.suffix(2).map(\.commonName)
            taxa.append(GeneratedTaxon(order: order + 3, category: "slash", commonName: last.joined(separator: "/"), scientificName: "Genus sp."))
            taxa.append(GeneratedTaxon(order: order + 4, category: "hybrid", commonName: last.joined(separator: " x ") + " (hybrid)", scientificName: "Genus hybrid"))
            taxa.append(GeneratedTaxon(order: order + 5, category: "spuh", commonName: "\(noun.lowercased()) sp.", scientificName: "Genus sp."))
            order += 6
        }
        for state in Self.states {
            for county in 1...rng.within(3...8) {
                places.append(GeneratedPlace(country: state.0, countryCode: state.1, state: state.2, stateCode: state.3,
                                             county: "County \(county)", countyCode: "\(state.3)-\(String(format: "%03d", county * 2 - 1))",
                                             latitude: state.4 + rng.unit() - 0.5, longitude: state.5 + rng.unit() - 0.5))
            }
        }
        for _ in places { weights.append(taxa.map { _ in rng.chance(perMille: 300) ? 0 : 1 + rng.below(1000) * rng.below(1000) / 1000 }) }
    }

    /// About 12 taxa for a checklist at its place, more in spring and autumn.
    func pickTaxa(for checklist: GeneratedChecklist, rng: inout SplitMix64) -> [Int] {
        let weights = self.weights[checklist.place]
        let seasonal = [4, 5, 9, 10].contains(checklist.month) ? 16 : 10
        let wanted = max(1, rng.within(seasonal / 2...seasonal * 3 / 2))
        var chosen = Set<Int>()
        var tries = 0
        while chosen.count < wanted && tries < wanted * 20 {
            tries += 1
            let taxon = rng.below(taxa.count)
            if weights[taxon] > rng.below(1000) { chosen.insert(taxon) }
        }
        return chosen.sorted()
    }
}

/// A generated checklist (one sampling event) and the rows it writes.
struct GeneratedChecklist {
    var number: Int
    var place: Int
    var date: String
    var month: Int
    var complete: Bool
    var group: String
    var observer = ""
    var countyless: Bool
    let location: GeneratedPlace

    init(number: Int, world: GeneratedWorld, rng: inout SplitMix64, group: String) {
        self.number = number
        place = rng.below(world.places.count)
        location = world.places[place]
        month = rng.within(1...12)
        let days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        date = String(format: "%04d-%02d-%02d", rng.within(2015...2025), month, rng.within(1...days))
        complete = !rng.chance(perMille: 80)
        self.group = group
        countyless = rng.chance(perMille: 10)
    }

    /// The checklist columns shared by both files, by header name.
    func checklistValues() -> [String: String] {
        let p = location
        return ["COUNTRY": p.country, "COUNTRY CODE": p.countryCode, "STATE": p.state, "STATE CODE": p.stateCode,
                "COUNTY": countyless ? "" : p.county, "COUNTY CODE": countyless ? "" : p.countyCode, "BCR CODE": "\(5 + number % 36)",
                "LOCALITY": "Site \(number % 9_973) \"Trailhead\"", "LOCALITY ID": "L\(1_000_000 + number % 9_973)", "LOCALITY TYPE": "H",
                "LATITUDE": String(format: "%.7f", p.latitude), "LONGITUDE": String(format: "%.7f", p.longitude),
                "OBSERVATION DATE": date, "TIME OBSERVATIONS STARTED": String(format: "%02d:%02d:00", 5 + number % 12, number % 60),
                "OBSERVER ID": observer, "SAMPLING EVENT IDENTIFIER": "S\(number)", "OBSERVATION TYPE": "Traveling",
                "PROTOCOL NAME": "Traveling", "PROTOCOL CODE": "P22", "DURATION MINUTES": "\(15 + number % 180)",
                "EFFORT DISTANCE KM": String(format: "%.3f", Double(number % 5000) / 1000), "NUMBER OBSERVERS": group.isEmpty ? "1" : "2",
                "ALL SPECIES REPORTED": complete ? "1" : "0", "GROUP IDENTIFIER": group, "HAS MEDIA": "0",
                "CHECKLIST COMMENTS": number % 7 == 0 ? "Windy; \"fog\" lifting by 9" : ""]
    }

    func observationFields(taxon: GeneratedTaxon, row: Int, rng: inout SplitMix64) -> [String] {
        var values = checklistValues()
        values["GLOBAL UNIQUE IDENTIFIER"] = "URN:CornellLabOfOrnithology:EBIRD:OBS\(500_000_000 + row)"
        values["LAST EDITED DATE"] = "2025-10-19 13:33:09.239201"
        values["TAXONOMIC ORDER"] = "\(taxon.order)"
        values["CATEGORY"] = taxon.category
        values["TAXON CONCEPT ID"] = "avibase-\(String(taxon.order * 7919, radix: 16, uppercase: true))"
        values["COMMON NAME"] = taxon.commonName
        values["SCIENTIFIC NAME"] = taxon.scientificName
        values["SUBSPECIES COMMON NAME"] = taxon.subspeciesCommon
        values["SUBSPECIES SCIENTIFIC NAME"] = taxon.subspeciesScientific
        values["OBSERVATION COUNT"] = rng.chance(perMille: 80) ? "X" : "\(1 + rng.below(12))"
        let approved = !rng.chance(perMille: 5)
        values["APPROVED"] = approved ? "1" : "0"
        values["REVIEWED"] = approved ? "0" : "1"
        values["SPECIES COMMENTS"] = row % 11 == 0 ? "heard \"chip\" notes" : ""
        return EBDColumns.observationHeader.map { values[$0] ?? "" }
    }

    func samplingFields() -> [String] {
        var values = checklistValues()
        values["LAST EDITED DATE"] = "2025-10-19 13:33:09.239201"
        return EBDColumns.samplingHeader.map { values[$0] ?? "" }
    }
}
