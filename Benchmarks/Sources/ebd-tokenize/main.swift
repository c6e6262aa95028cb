import BenchSupport
import CLibCSV
import FieldGuideCSV
import Foundation

/// The physical limit aggregate-ebd is measured against: the same file tokenized by libcsv
/// alone (counting callbacks in C, the same tab dialect, `"` not special), then through
/// FieldGuideCSV's reader (records built on a second thread, as the stage reads them), each
/// the best of `ROUNDS` (default 3) in MB/s:
///
///     ebd-tokenize FILE [ROUNDS]
let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: ebd-tokenize FILE [ROUNDS]\n".utf8))
    exit(2)
}
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 3
let size = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)

func best(_ label: String, _ body: () throws -> Int) rethrows {
    var fastest = Double.infinity, records = 0
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        records = try body()
        fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    print("ebd-tokenize: \(label.rightPadded(44)) \(String(format: "%6.0f", size / fastest / 1e6)) MB/s  (\(String(format: "%.2f", fastest)) s, \(grouped(records)) records)")
}

try best("libcsv alone (C callbacks)") {
    var parser = csv_parser()
    guard fieldguide_bench_init(&parser) == 0 else { throw CocoaError(.featureUnsupported) }
    var counts = fieldguide_counts()
    try CSVReader.stream(fileAt: path) { chunk in _ = fieldguide_bench_parse(&parser, chunk.baseAddress, chunk.count, &counts) }
    fieldguide_bench_finish(&parser, &counts)
    return counts.rows
}
try best("FieldGuideCSV records (CSVPipeline)") {
    var records = 0
    try CSVPipeline.run(dialect: .tabSeparated, file: path, produce: { feed in try CSVReader.stream(fileAt: path) { try feed($0) } }) { _ in
        records += 1
    }
    return records
}
