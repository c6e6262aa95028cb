import BenchSupport
import FieldGuideBirds
import Foundation

/// Writes a generated eBird Basic Dataset in the real layout (the 52-column header, tab
/// separated, rows grouped taxon by taxon as eBird publishes them) and its sampling-event file:
///
///     generate-ebd-data DIR [ROWS=1000000] [--shuffled]
///
/// `DIR/ebd.txt` and `DIR/sampling.txt`. Checklists across 3 countries, 9 states and their
/// counties, 2015–2025; about 12 taxa each from 420 (species, subspecies under a species name,
/// spuhs, slashes, hybrids); 15% shared (GROUP IDENTIFIER, 2–3 members reporting mostly the
/// same taxa), 8% incomplete, 0.5% of rows unapproved, 1% without a county, 4% of sampled
/// checklists with no detection (only in the sampling file), and a few rejected rows of each
/// kind (short, bad date, bad identifier). `--shuffled` writes the rows in a scrambled order
/// (not eBird's), for the engine's other counting path. Same arguments, same bytes.
let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first(where: { !$0.hasPrefix("--") }) else {
    FileHandle.standardError.write(Data("usage: generate-ebd-data DIR [ROWS] [--shuffled]\n".utf8))
    exit(2)
}
let target = arguments.dropFirst().compactMap { Int($0) }.first ?? 1_000_000
let shuffled = arguments.contains("--shuffled")
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

var rng = SplitMix64(seed: 17)
let world = GeneratedWorld(rng: &rng)
var checklists: [GeneratedChecklist] = []
var detections: [(taxon: Int32, checklist: Int32)] = []
detections.reserveCapacity(target + 64)
var groupNumber = 300_000
while detections.count < target {
    let members = rng.chance(perMille: 150) ? rng.within(2...3) : 1
    let base = GeneratedChecklist(number: 10_000_000 + checklists.count * 3, world: world, rng: &rng,
                                  group: members > 1 ? "G\(groupNumber)" : "")
    if members > 1 { groupNumber += 1 }
    let taxa = rng.chance(perMille: 40) ? [] : world.pickTaxa(for: base, rng: &rng)
    for member in 0..<members {
        var checklist = base
        checklist.number += member
        checklist.observer = "obsr\(1_000_000 + rng.below(90_000))"
        let index = Int32(checklists.count)
        checklists.append(checklist)
        for taxon in taxa where member == 0 || !rng.chance(perMille: 100) { detections.append((Int32(taxon), index)) }
    }
}
if shuffled {
    for i in stride(from: detections.count - 1, to: 0, by: -1) { detections.swapAt(i, rng.below(i + 1)) }
} else {
    detections.sort { ($0.taxon, checklists[Int($0.checklist)].number) < ($1.taxon, checklists[Int($1.checklist)].number) }
}

try writeLines(to: directory + "/ebd.txt", header: EBDColumns.observationHeader) { emit in
    for (n, detection) in detections.enumerated() {
        var fields = checklists[Int(detection.checklist)].observationFields(taxon: world.taxa[Int(detection.taxon)], row: n, rng: &rng)
        // A few rows of each rejected kind.
        switch n % 200_003 {
        case 1_001: fields.removeLast(3)
        case 2_002: fields[30] = "2023-02-29"
        case 3_003: fields[34] = "S0\(n)"
        default: break
        }
        emit(fields)
    }
}
try writeLines(to: directory + "/sampling.txt", header: EBDColumns.samplingHeader) { emit in
    for checklist in checklists { emit(checklist.samplingFields()) }
}
let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/ebd.txt")[.size] as? Int) ?? 0
print("generate-ebd-data: \(grouped(detections.count)) rows (\(grouped(size >> 20)) MB) of \(grouped(checklists.count)) checklists, \(world.taxa.count) taxa\(shuffled ? ", shuffled" : "") in \(directory)/ebd.txt, sampling.txt")

/// Streams tab-separated lines to a file through a 1 MiB buffer.
func writeLines(to path: String, header: [String], _ body: ((([String]) -> Void)) throws -> Void) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
        throw CocoaError(.fileWriteUnknown)
    }
    defer { try? handle.close() }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 21)
    func emit(_ fields: [String]) {
        for (i, field) in fields.enumerated() {
            if i > 0 { buffer.append(9) }
            buffer.append(contentsOf: field.utf8)
        }
        buffer.append(10)
        if buffer.count >= 1 << 20 {
            handle.write(Data(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }
    emit(header)
    try body(emit)
    handle.write(Data(buffer))
}
