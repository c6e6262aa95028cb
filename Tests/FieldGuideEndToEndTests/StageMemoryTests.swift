#if canImport(Glibc)
import Glibc
#endif
import StageCLI
import TestSupport
import Testing

@Suite("A stage's process returns its large blocks to the system")
struct StageMemoryTests {
    /// True where glibc's allocator is the one to check: a sanitizer's replaces it, ignoring
    /// `mallopt` and keeping no glibc chunk header.
    static func glibcAllocatorInUse(_ test: String) -> Bool {
        !Sanitizer.skipped(test, under: ["AddressSanitizer", "ThreadSanitizer"], because: "its allocator replaces glibc's in this process")
    }

    /// glibc's default raises its mapping threshold to the size of each mapped block freed, so
    /// after an 8 MB block is freed a 2 MB one comes from the heap, where freed memory stays
    /// resident. With the threshold fixed, it is a mapping of its own, unmapped on free.
    ///
    /// In a process of its own, as a stage is: in the test runner's heap, full of other tests'
    /// freed memory, a free chunk can serve a block of any size before the threshold is asked.
    @Test("after configure(), a 2 MB block is its own mapping, even right after an 8 MB one was freed")
    func largeBlocksAreMappings() async {
        #if canImport(Glibc)
        guard Self.glibcAllocatorInUse("largeBlocksAreMappings") else { return }
        await #expect(processExitsWith: .success) {
            guard StageMemory.configure() else { exit(10) }
            let big = UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 16)
            guard StageMemory.isMappedBlock(big) == true else { exit(11) }
            big.deallocate()
            for size in [2 << 20, Int(StageMemory.mappedBlockThreshold)] {
                let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                defer { block.deallocate() }
                guard StageMemory.isMappedBlock(block) == true else { exit(12) }
            }
            // Below the threshold, blocks stay in the heap (no system call per small allocation).
            let small = UnsafeMutableRawPointer.allocate(byteCount: 64 << 10, alignment: 16)
            guard StageMemory.isMappedBlock(small) == false else { exit(13) }
            small.deallocate()
        }
        #else
        print("StageMemoryTests: skipped, not glibc")
        #endif
    }

    @Test("without it, glibc serves the 2 MB block from the heap (what configure() is for)")
    func defaultAllocatorKeepsThem() async {
        #if canImport(Glibc)
        guard Self.glibcAllocatorInUse("defaultAllocatorKeepsThem") else { return }
        await #expect(processExitsWith: .success) {
            let big = UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 16)
            big.deallocate()
            let block = UnsafeMutableRawPointer.allocate(byteCount: 2 << 20, alignment: 16)
            guard StageMemory.isMappedBlock(block) == false else { exit(20) }
            block.deallocate()
        }
        #endif
    }
}
