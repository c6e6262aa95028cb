import FuzzSupport

// libFuzzer's custom-mutator entry point for the artifact targets (fuzz-aircraft-artifact,
// fuzz-aircraft-index, fuzz-birds-artifact), in a target of its own: libFuzzer finds the symbol
// by name in whichever binary links it, so the text and export targets must not.

/// Mutations that keep every checksum valid (and, one in eight, libFuzzer's own).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    seed % 8 == 0 ? LLVMFuzzerMutate(data, size, maxSize) : ArtifactMutator.mutate(data, size, maxSize, seed)
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int
