/// One region's computed bar chart: checklists per period and, per taxon, the checklists that
/// reported it; written in the layout of an eBird bar-chart download (`EBirdBarChart` reads it).
///
/// Frequencies are plain decimals, reported ÷ checklists rounded half up to 7 places with
/// trailing zeros dropped (`0.0962672`, `0.5`, `0.0`), computed in integers so that both
/// engines write the same bytes; sample sizes are written as the download writes them (`509.0`).
///
/// ```swift
/// let chart = BarChartTable(region: "US-NY", sampleSizes: samples, rows: [("Blue Jay", counts)])
/// chart.fileName             // "barchart-US-NY.txt"
/// AtomicFile.write(chart.bytes(), to: dir + "/" + chart.fileName)
/// ```
public struct BarChartTable: Sendable, Equatable {
    public var region: String
    /// Checklists in each of the 48 periods.
    public var sampleSizes: [Int]
    /// Taxa in taxonomic order with the checklists reporting each in each period.
    public var rows: [(name: String, counts: [Int])]

    public init(region: String, sampleSizes: [Int], rows: [(name: String, counts: [Int])]) {
        self.region = region
        self.sampleSizes = sampleSizes
        self.rows = rows
    }

    public static func == (a: BarChartTable, b: BarChartTable) -> Bool {
        a.region == b.region && a.sampleSizes == b.sampleSizes
            && a.rows.count == b.rows.count && zip(a.rows, b.rows).allSatisfy { $0.name == $1.name && $0.counts == $1.counts }
    }

    /// `barchart-REGION.txt`.
    public var fileName: String { "barchart-\(region).txt" }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The file's bytes: the download's header lines, the sample sizes, one row per taxon.
    public func bytes() -> [UInt8] {
        var text = String(repeating: "\n", count: 10)
        text += "Frequency of observations in the selected location(s).:\n"
        text += "Number of taxa: \t\(rows.count)\n\n"
        text += "\t" + Self.months.map { $0 + "\t\t\t\t" }.joined() + "\n"
        text += "Sample Size:\t" + sampleSizes.map { "\($0).0\t" }.joined() + "\n\n"
        for row in rows {
            text += row.name + "\t"
            for (count, checklists) in zip(row.counts, sampleSizes) { text += Self.frequency(count, of: checklists) + "\t" }
            text += "\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// `reported ÷ checklists` rounded half up to 7 decimals, as a plain decimal without
    /// trailing zeros (at least one decimal); `0.0` when there are no checklists.
    ///
    /// ```swift
    /// BarChartTable.frequency(49, of: 509)   // "0.0962672"
    /// BarChartTable.frequency(1, of: 2)      // "0.5"
    /// ```
    public static func frequency(_ reported: Int, of checklists: Int) -> String {
        guard checklists > 0, reported > 0 else { return "0.0" }
        let reported = min(reported, checklists)
        let scale = 10_000_000
        // round(reported × 10⁷ ÷ checklists), half up, without overflow.
        let (high, low) = (reported * 2).multipliedFullWidth(by: scale)  // reported ≤ checklists: the quotient fits
        let (quotient, _) = checklists.dividingFullWidth((high, low))
        let rounded = (quotient + 1) / 2
        var fraction = String(rounded % scale)
        fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(rounded / scale).\(fraction)"
    }
}
