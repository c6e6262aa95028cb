import FieldGuideFAA
import FuzzSupport
import Foundation

/// MASTER.txt through the whole FAA ingest, beside input/faa's real-format ACFTREF and ENGINE.
let sources: String = {
    let directory = Fuzz.scratch + "/faa"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for name in ["ACFTREF.txt", "ENGINE.txt"] {
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
        try? FileManager.default.copyItem(atPath: Fuzz.root + "/input/faa/" + name, toPath: directory + "/" + name)
    }
    return directory
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FileManager.default.createFile(atPath: sources + "/MASTER.txt", contents: Data(bytes: start, count: count))
    guard let located = try? FAASources.locate(sources) else { return 0 }
    _ = try? FAAIngest(options: .init(maxRejectShare: 1)).run(sources: located, outputDirectory: Fuzz.scratch + "/faa-out")
    return 0
}
