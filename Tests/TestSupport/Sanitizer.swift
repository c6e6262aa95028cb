#if canImport(Glibc)
import Glibc
#endif

/// The sanitizer this test process runs under (`make sanitize`, whose stage executables the
/// tests run are built with the same one), found by its runtime's entry point; nil without one.
///
/// Some behaviour under test is the platform's, and a sanitizer's runtime replaces it: its
/// allocator takes the place of glibc's, ThreadSanitizer's runtime cannot start under a small
/// file-size limit. A test of that behaviour says so and stops (`skipped(_:because:)`).
public enum Sanitizer {
    public static let active: String? = {
        #if canImport(Glibc)
        let runtimes = [("__asan_init", "AddressSanitizer"), ("__tsan_init", "ThreadSanitizer")]
        return runtimes.first { dlsym(nil, $0.0) != nil }?.1
        #else
        return nil
        #endif
    }()

    /// True, printing why, when the test `test` cannot run under the active sanitizer, one of
    /// `sanitizers`.
    public static func skipped(_ test: String, under sanitizers: Set<String>, because reason: String) -> Bool {
        guard let active, sanitizers.contains(active) else { return false }
        print("note: skipping \(test) under \(active): \(reason)")
        return true
    }
}
