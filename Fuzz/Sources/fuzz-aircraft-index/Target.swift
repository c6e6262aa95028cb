import FieldGuide
import FuzzSupport

/// The manufacturer index opened header-only and fully, and queried whenever it opens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.artifact(start, count, as: "aircraft-index.fgb", open: { try AircraftIndex(path: $0, verification: $1) }, exercise: Fuzz.exercise)
    return 0
}

/// Mutations that keep every checksum valid (and, one in eight, libFuzzer's own).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    seed % 8 == 0 ? LLVMFuzzerMutate(data, size, maxSize) : ArtifactMutator.mutate(data, size, maxSize, seed)
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int
