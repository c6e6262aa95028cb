import FieldGuide
import FuzzSupport

/// A birds artifact opened header-only and fully, and queried whenever it opens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = Fuzz.write(start, count, as: "birds.fgb")
    if let bundle = try? BirdsBundle(path: path, verification: .headerOnly) { Fuzz.exercise(bundle) }
    if let bundle = try? BirdsBundle(path: path, verification: .full) { Fuzz.exercise(bundle) }
    return 0
}

/// Mutations that keep every checksum valid (and, now and then, libFuzzer's own).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    seed % 8 == 0 ? LLVMFuzzerMutate(data, size, maxSize) : ArtifactMutator.mutate(data, size, maxSize, seed)
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int
