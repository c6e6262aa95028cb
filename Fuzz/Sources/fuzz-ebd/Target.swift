import FieldGuideBirds
import FuzzSupport
import Foundation

/// An eBird Basic Dataset file (tab separated) through `aggregate-ebd`'s embedded engine, at
/// the state level, every row allowed to be rejected.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = Fuzz.write(start, count, as: "ebd.txt")
    let aggregation = EBDAggregation(options: .init(level: .state, maxRejectShare: 1))
    _ = try? aggregation.run(inputs: [path], outputDirectory: Fuzz.scratch + "/ebd-out")
    return 0
}
