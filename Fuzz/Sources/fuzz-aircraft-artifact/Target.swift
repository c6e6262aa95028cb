import FieldGuide
import ArtifactMutatorEntry   // LLVMFuzzerCustomMutator: checksum-keeping mutations
import FuzzSupport

/// A aircraft artifact opened header-only and fully, and queried whenever it opens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.artifact(start, count, as: "aircraft.fgb", open: { try AircraftBundle(path: $0, verification: $1) }, exercise: Fuzz.exercise)
    return 0
}
