/// The buffer a file's chunks are read into: page-aligned, because the kernel copies a chunk
/// into it at a fraction of its speed when it is not.
///
/// `read` and `pread` copy from the page cache with `rep movsb`. On this project's AMD EPYC
/// machines that copy runs 3 to 8 times slower into a destination 8 or 16 bytes past a cache
/// line than into an aligned one: DEREG.txt (289 MB) read in 1 MiB chunks took 0.45–0.51 s
/// into a buffer 16 bytes into a page (where `malloc` puts a block of its own, what
/// `allocate(byteCount:alignment: 16)` returned) against 0.06–0.14 s into a page-aligned one,
/// reading it three times; the source's offset in the file makes no such difference. In
/// `ingest-faa` with DEREG at full size the kernel's copy fell from 18% of the stage's CPU
/// samples to 2% (while another build shared the machine), its system time from 0.52–0.93 s
/// to 0.36–0.53 s (5 alternating runs on a quiet one).
///
/// ```swift
/// let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
/// defer { buffer.deallocate() }
/// let n = read(fd, buffer.baseAddress, buffer.count)
/// ```
public enum ReadBuffer {
    /// The alignment of every read buffer: a page (a cache line is enough for the copy; a page
    /// also suits `O_DIRECT`).
    public static let alignment = 4096

    /// An uninitialized, page-aligned buffer of `byteCount` bytes; the caller deallocates it.
    public static func allocate(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        .allocate(byteCount: byteCount, alignment: alignment)
    }
}
