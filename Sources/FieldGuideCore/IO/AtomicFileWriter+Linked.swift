import Foundation

extension AtomicFileWriter {
    /// A writer whose temporary file is the anonymous file `fd` already holds (opened with
    /// `anonymousFileFlag`), given a name beside `path` instead of being copied there; nil when
    /// the link is refused (`path`'s directory on another file system or missing, no `/proc`),
    /// and then the caller copies. `fd` stays the caller's; the writer holds a duplicate.
    ///
    /// Why: a stage that spools a large output before it knows the run will keep it
    /// (`Spool`: `observations.csv`, a rejects report) copied it, every byte read back and
    /// written again, at commit; the link costs nothing, whatever the size.
    ///
    /// ```swift
    /// if let writer = AtomicFileWriter(linking: fd, to: "output/stage/exports/observations.csv") {
    ///     try writer.commit()
    /// }
    /// ```
    convenience init?(linking fd: Int32, to path: String) {
        guard Self.anonymousFileFlag != 0 else { return nil }
        let temporary = Self.temporaryPath(for: path)
        guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else { return nil }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            unlink(temporary)
            return nil
        }
        self.init(path: path, temporary: temporary, fd: copy)
    }

    /// `O_TMPFILE`, whose value depends on the architecture (and which Glibc's module leaves
    /// out): a file with no name until `linkat` gives it one. 0 where unknown, and there a
    /// spool is a named file unlinked at once, copied at commit.
    package static var anonymousFileFlag: Int32 { linuxOpenFlag(x86_64: 0o20200000, arm64: 0o20040000) }
}
