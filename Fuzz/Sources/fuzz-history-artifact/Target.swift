import FieldGuide
import ArtifactMutatorEntry   // LLVMFuzzerCustomMutator: checksum-keeping mutations
import FuzzSupport

/// A registry history (history.fgb) opened header-only and fully, and read whenever it opens:
/// what `fieldguide history` and `record-history`'s carry-forward read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.artifact(start, count, as: "history.fgb", open: { try RegistrationHistory(path: $0, verification: $1) }, exercise: Fuzz.exercise)
    return 0
}
