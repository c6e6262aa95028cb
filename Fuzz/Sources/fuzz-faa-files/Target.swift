import FieldGuideFAA
import FuzzSupport
import Foundation

/// The FAA files beside MASTER (ACFTREF, ENGINE, DEREG, RESERVED) through the whole FAA
/// ingest: the input stands in for each of them in turn, the others are input/faa's.
let sources = Fuzz.scratch + "/faa"
let names = ["ACFTREF.txt", "ENGINE.txt", "DEREG.txt", "RESERVED.txt"]

/// input/faa's file `name` back in place.
func restore(_ name: String) {
    try? FileManager.default.removeItem(atPath: sources + "/" + name)
    try? FileManager.default.copyItem(atPath: Fuzz.root + "/input/faa/" + name, toPath: sources + "/" + name)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    try? FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
    for name in names + ["MASTER.txt"] { restore(name) }
    for name in names {
        FileManager.default.createFile(atPath: sources + "/" + name, contents: Data(bytes: start, count: count))
        if let located = try? FAASources.locate(sources) {
            _ = try? FAAIngest(options: .init(maxRejectShare: 1)).run(sources: located, outputDirectory: Fuzz.scratch + "/faa-out")
        }
        restore(name)
    }
    return 0
}
