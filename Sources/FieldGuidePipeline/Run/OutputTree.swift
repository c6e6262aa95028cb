import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pipeline's own directories inside the output directory, handled without ever following
/// a symbolic link out of it.
///
/// Every path is relative to `root` and walked one component at a time with `openat` and
/// `O_NOFOLLOW`: a link planted where the pipeline keeps a directory (`.pipeline/NAME/staging`,
/// `builds`, `runs`…) is refused with its target named, and a removal unlinks a link it meets
/// instead of descending into it. The output directory itself may be a link (an `output` on a
/// larger disk); what is inside it is the pipeline's.
///
/// ```swift
/// let tree = OutputTree(root: "output")
/// try tree.directory(".pipeline/nightly/staging")          // created, or refused if a link
/// try tree.removeContents(of: ".pipeline/nightly/staging")  // links inside are unlinked, never followed
/// ```
struct OutputTree: Sendable {
    let root: String

    /// `path` relative to the root, when it is inside it.
    func relative(_ path: String) -> String? {
        if path == root { return "" }
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : nil
    }

    /// Makes sure each component of `relative` is a real directory (creating missing ones when
    /// `create`), and returns its full path. A symbolic link or a file on the way is an I/O error.
    @discardableResult
    func directory(_ relative: String, create: Bool = true) throws(PipelineError) -> String {
        let fd = try openDirectory(relative, create: create)
        if fd >= 0 { close(fd) }
        return path(relative)
    }

    /// Whether `relative` exists as a real directory (nothing on the way a link); false when
    /// it is absent; an error when a link or a file stands where a directory is expected.
    func isDirectory(_ relative: String) throws(PipelineError) -> Bool {
        let fd = try openDirectory(relative, create: false)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Removes `relative` (a file, a link or a whole directory), never following a link: a link
    /// is unlinked, a directory emptied the same way and removed. Absent is fine.
    func remove(_ relative: String) throws(PipelineError) {
        let (parent, name) = split(relative)
        let fd = try openDirectory(parent, create: false)
        guard fd >= 0 else { return }
        defer { close(fd) }
        try Self.removeEntry(name, in: fd, shown: path(relative))
    }

    /// Removes everything inside the directory `relative`, never following a link.
    func removeContents(of relative: String) throws(PipelineError) {
        let fd = try openDirectory(relative, create: false)
        guard fd >= 0 else { return }
        defer { close(fd) }
        try Self.removeContents(fd, shown: path(relative))
    }

    /// The names in the directory `relative` (none when it is absent), hidden ones included.
    func names(in relative: String) throws(PipelineError) -> [String] {
        let fd = try openDirectory(relative, create: false)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        return Self.names(fd)
    }

    /// Hard-links the regular file `relative` to `destination` (a copy when the file system
    /// refuses links). The file must be a regular file reached without a symbolic link: a
    /// stage's output cannot publish a file from outside its directory.
    func link(_ relative: String, to destination: String) throws(PipelineError) {
        let (fd, name) = try openRegularFile(relative, why: "; a published file must be a file inside its stage's directory")
        defer { close(fd) }
        if linkat(fd, name, AT_FDCWD, destination, 0) == 0 { return }
        try Self.copy(name, in: fd, to: destination, shown: path(relative))
    }

    /// Throws unless `relative` is a regular file reached without a symbolic link.
    func requireRegularFile(_ relative: String) throws(PipelineError) {
        close(try openRegularFile(relative, why: "").directory)
    }

    /// The open directory holding the regular file `relative`, and its name there; an error
    /// (ending with `why`) when it is anything else.
    private func openRegularFile(_ relative: String, why: String) throws(PipelineError) -> (directory: Int32, name: String) {
        let (parent, name) = split(relative)
        let fd = try openDirectory(parent, create: false)
        guard fd >= 0 else { throw PipelineError(.io, "\(path(relative)): missing") }
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let reason = SystemReason.errnoText
            close(fd)
            throw PipelineError(.io, "\(path(relative)): \(reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw PipelineError(.io, "\(path(relative)): \(Self.kind(info.st_mode)), not a regular file" + why)
        }
        return (fd, name)
    }

    // MARK: Walking

    private func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

    private func split(_ relative: String) -> (parent: String, name: String) {
        guard let slash = relative.lastIndex(of: "/") else { return ("", relative) }
        return (String(relative[..<slash]), String(relative[relative.index(after: slash)...]))
    }

    /// Opens the directory `relative` component by component with `O_NOFOLLOW`; -1 when a
    /// component is absent and `create` is false.
    private func openDirectory(_ relative: String, create: Bool) throws(PipelineError) -> Int32 {
        if create && access(root, F_OK) != 0 {
            // The output directory itself is the user's path: links on the way to it are fine.
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT && !create { return -1 }
            throw PipelineError(.io, "\(root): cannot open the output directory: \(SystemReason.errnoText)")
        }
        var walked = root
        for component in relative.split(separator: "/").map(String.init) {
            walked += "/" + component
            var next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(fd, component, 0o755) != 0 && errno != EEXIST {
                    let reason = SystemReason.errnoText
                    close(fd)
                    throw PipelineError(.io, "\(walked): cannot create: \(reason)")
                }
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                let error = Self.refusal(component, in: fd, shown: walked, errno: code)
                close(fd)
                if code == ENOENT && !create { return -1 }
                throw error
            }
            close(fd)
            fd = next
        }
        return fd
    }

    /// Why `name` could not be opened as a directory: a link (named with its target), a file,
    /// or the system's reason.
    private static func refusal(_ name: String, in fd: Int32, shown: String, errno code: Int32) -> PipelineError {
        var info = stat()
        if fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlinkat(fd, name, &buffer, buffer.count - 1)
                let target = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
                return PipelineError(.io, "\(shown): a symbolic link (to \(target)) where the pipeline keeps a directory of its own; "
                                     + "it never follows links out of the output directory: remove the link and run again")
            }
            if info.st_mode & S_IFMT != S_IFDIR {
                return PipelineError(.io, "\(shown): \(kind(info.st_mode)) where the pipeline keeps a directory of its own: remove it and run again")
            }
        }
        return PipelineError(.io, "\(shown): cannot open: \(String(cString: strerror(code)))")
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFREG: "a file"
        default: "a special file"
        }
    }

    private static func names(_ fd: Int32) -> [String] {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { out.append(name) }
        }
        return out.sorted()
    }

    private static func removeContents(_ fd: Int32, shown: String) throws(PipelineError) {
        for name in names(fd) { try removeEntry(name, in: fd, shown: shown + "/" + name) }
    }

    /// Unlinks `name` in the directory `fd`; a directory (never a link to one) is emptied first.
    private static func removeEntry(_ name: String, in fd: Int32, shown: String) throws(PipelineError) {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw PipelineError(.io, "\(shown): cannot remove: \(SystemReason.errnoText)")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { throw PipelineError(.io, "\(shown): cannot open to remove: \(SystemReason.errnoText)") }
            defer { close(child) }
            try removeContents(child, shown: shown)
            guard unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
                throw PipelineError(.io, "\(shown): cannot remove: \(SystemReason.errnoText)")
            }
        } else if unlinkat(fd, name, 0) != 0 && errno != ENOENT {
            throw PipelineError(.io, "\(shown): cannot remove: \(SystemReason.errnoText)")
        }
    }

    /// Copies the regular file `name` of the directory `fd` to a new file `destination`.
    private static func copy(_ name: String, in fd: Int32, to destination: String, shown: String) throws(PipelineError) {
        let source = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { throw PipelineError(.io, "\(shown): cannot open: \(SystemReason.errnoText)") }
        defer { close(source) }
        let target = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard target >= 0 else { throw PipelineError(.io, "\(destination): cannot create: \(SystemReason.errnoText)") }
        defer { close(target) }
        let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
        defer { buffer.deallocate() }
        while true {
            let n = read(source, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw PipelineError(.io, "\(shown): cannot read: \(SystemReason.errnoText)") }
            if n == 0 { return }
            var done = 0
            while done < n {
                let w = write(target, buffer.baseAddress! + done, n - done)
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw PipelineError(.io, "\(destination): cannot write: \(SystemReason.errnoText)") }
                done += w
            }
        }
    }
}
