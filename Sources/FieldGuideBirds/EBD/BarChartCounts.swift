import FieldGuideDiagnostics

/// Checklists and detections per region, period (1–48) and taxon: what bar charts are made of.
///
/// A checklist is counted once per (checklist, region, period), where a shared checklist is
/// its GROUP IDENTIFIER and any other its SAMPLING EVENT IDENTIFIER; a taxon once per such
/// checklist. Memory: one 12-byte slot (and a 4-byte last taxon) per checklist, 48 counters
/// per (region, taxon) reported, whatever the number of rows.
///
/// Counting a taxon once per checklist needs to know whether a checklist already reported it.
/// In eBird's own order (every taxon's rows together, as the EBD is published) the checklist's
/// last counted taxon tells (`Dedup.taxonBlocks`): nothing more is held. A file in any other
/// order is found out (a taxon whose rows resume after another's began: `NotGroupedByTaxon`)
/// and counted again with a set of (checklist, taxon) pairs (`Dedup.pairs`), which grows with
/// the detections.
///
/// ```swift
/// var counts = BarChartCounts(dedup: .taxonBlocks)
/// let region = try counts.region(code)                       // US-NY
/// let unit = try counts.checklist(number: 11593649, isGroup: false, region: region, period: 35)
/// try counts.detection(unit: unit, region: region, period: 35, taxon: counts.taxon(name, order: 21181))
/// counts.forEachChart { chart in … }                        // US-NY: Blue Jay 1 of 1 in period 35
/// ```
struct BarChartCounts {
    enum Dedup: Sendable { case taxonBlocks, pairs }

    /// Rows in another order than taxon by taxon: the engine counts again with `Dedup.pairs`.
    struct NotGroupedByTaxon: Error {
        var name: String
    }

    /// Bounds checked before memory is spent: region ids fill 19 bits of a checklist key.
    static let maxRegions = (1 << 19) - 1
    static let maxTaxa = 1_000_000
    static let maxChecklists = Int(UInt32.max) - 1

    let dedup: Dedup
    private var regionIDs: [RegionKey: UInt32] = [:]
    private(set) var regionCodes: [[UInt8]] = []
    private var taxonIDs: [[UInt8]: UInt32] = [:]
    /// Index 0 is no taxon.
    private var taxonNames: [[UInt8]] = [[]]
    private var taxonOrders: [Int] = [0]
    private var cachedName: [UInt8] = []
    private var cachedTaxon: UInt32 = 0
    /// 48 per region: checklists per period.
    private var samples: [UInt32] = []
    private var checklists = PackedHashTable(capacity: 1 << 16)
    /// The last taxon counted on each checklist (`taxonBlocks`).
    private var lastTaxon: [UInt32] = []
    private var pairs = PackedHashTable(capacity: 1 << 4)
    private var cellOffsets: [UInt64: Int] = [:]
    /// 48 per (region, taxon) cell: checklists reporting the taxon per period.
    private var cellCounts: [UInt32] = []
    private var currentTaxon: UInt32 = 0
    private var finishedTaxa: [Bool] = [false]
    private(set) var detections = 0

    init(dedup: Dedup) { self.dedup = dedup }

    var checklistCount: Int { checklists.count }
    var taxonCount: Int { taxonNames.count - 1 }
    /// Bytes held by the checklist and pair tables.
    var tableBytes: Int { checklists.bytes + lastTaxon.count * 4 + pairs.bytes }

    /// The id of a region code (already checked by `EBDFields.isRegionCode`).
    mutating func region(_ code: UnsafeRawBufferPointer) throws(LocatedError) -> UInt32 {
        let key = RegionKey(code)
        if let id = regionIDs[key] { return id }
        guard regionCodes.count < Self.maxRegions else {
            throw LocatedError(.tooLarge, file: "", message: "more than \(Self.maxRegions) regions: the most one run counts")
        }
        let id = UInt32(regionCodes.count)
        regionIDs[key] = id
        regionCodes.append(Array(code))
        samples.append(contentsOf: repeatElement(0, count: 48))
        return id
    }

    /// The id of a taxon by COMMON NAME; its order is the least TAXONOMIC ORDER counted for it.
    mutating func taxon(_ name: UnsafeRawBufferPointer, order: Int) throws(LocatedError) -> UInt32 {
        let id: UInt32
        if name.elementsEqual(cachedName) {
            id = cachedTaxon
        } else {
            cachedName = Array(name)
            if let known = taxonIDs[cachedName] {
                id = known
            } else {
                guard taxonNames.count <= Self.maxTaxa else {
                    throw LocatedError(.tooLarge, file: "", message: "more than \(Self.maxTaxa) taxa: the most one run counts")
                }
                id = UInt32(taxonNames.count)
                taxonIDs[cachedName] = id
                taxonNames.append(cachedName)
                taxonOrders.append(order)
                finishedTaxa.append(false)
            }
            cachedTaxon = id
        }
        if order < taxonOrders[Int(id)] { taxonOrders[Int(id)] = order }
        return id
    }

    /// Counts a checklist in its region and period once; returns its number for `detection`.
    /// `number` is the identifier's digits (at most 11, so 37 bits).
    mutating func checklist(number: UInt64, isGroup: Bool, region: UInt32, period: Int) throws(LocatedError) -> UInt32 {
        let key = (isGroup ? 1 << 63 : 0) | number << 25 | UInt64(region) << 6 | UInt64(period)
        let (unit, inserted) = checklists.findOrInsert(key, value: UInt32(lastTaxon.count))
        if inserted {
            guard lastTaxon.count < Self.maxChecklists else {
                throw LocatedError(.tooLarge, file: "", message: "more than \(Self.maxChecklists) checklists: the most one run counts")
            }
            lastTaxon.append(0)
            samples[Int(region) * 48 + period - 1] += 1
        }
        return unit
    }

    /// Counts a taxon on a checklist (from `checklist`), once.
    mutating func detection(unit: UInt32, region: UInt32, period: Int, taxon: UInt32) throws(NotGroupedByTaxon) {
        switch dedup {
        case .taxonBlocks:
            if taxon != currentTaxon {
                if finishedTaxa[Int(taxon)] { throw NotGroupedByTaxon(name: String(decoding: taxonNames[Int(taxon)], as: UTF8.self)) }
                finishedTaxa[Int(currentTaxon)] = true
                currentTaxon = taxon
            }
            guard lastTaxon[Int(unit)] != taxon else { return }
            lastTaxon[Int(unit)] = taxon
        case .pairs:
            guard pairs.findOrInsert(UInt64(unit) << 32 | UInt64(taxon), value: 0).inserted else { return }
        }
        let cell = UInt64(region) << 32 | UInt64(taxon)
        let offset: Int
        if let known = cellOffsets[cell] {
            offset = known
        } else {
            offset = cellCounts.count
            cellOffsets[cell] = offset
            cellCounts.append(contentsOf: repeatElement(0, count: 48))
        }
        cellCounts[offset + period - 1] += 1
        detections += 1
    }

    /// Hands over one bar chart per region with a checklist, by region code (its bytes); taxa
    /// in taxonomic order (the least TAXONOMIC ORDER counted, then the name's bytes). One
    /// chart is built at a time.
    func forEachChart(_ body: (BarChartTable) throws -> Void) rethrows {
        var rowsByRegion: [[(taxon: UInt32, offset: Int)]] = Array(repeating: [], count: regionCodes.count)
        for (cell, offset) in cellOffsets {
            rowsByRegion[Int(cell >> 32)].append((UInt32(truncatingIfNeeded: cell), offset))
        }
        let regions = regionCodes.indices.sorted { regionCodes[$0].lexicographicallyPrecedes(regionCodes[$1]) }
        for region in regions {
            let rows = rowsByRegion[region].sorted { a, b in
                let (x, y) = (Int(a.taxon), Int(b.taxon))
                return taxonOrders[x] != taxonOrders[y] ? taxonOrders[x] < taxonOrders[y]
                    : taxonNames[x].lexicographicallyPrecedes(taxonNames[y])
            }
            try body(BarChartTable(region: String(decoding: regionCodes[region], as: UTF8.self),
                                   sampleSizes: samples[region * 48..<region * 48 + 48].map(Int.init),
                                   rows: rows.map { (String(decoding: taxonNames[Int($0.taxon)], as: UTF8.self),
                                                     cellCounts[$0.offset..<$0.offset + 48].map(Int.init)) }))
        }
    }
}

/// A region code of up to 16 bytes, packed into two words for hashing.
private struct RegionKey: Hashable {
    var low: UInt64 = 0, high: UInt64 = 0

    init(_ code: UnsafeRawBufferPointer) {
        for (i, byte) in code.prefix(16).enumerated() {
            if i < 8 { low |= UInt64(byte) << (i * 8) } else { high |= UInt64(byte) << ((i - 8) * 8) }
        }
    }
}
