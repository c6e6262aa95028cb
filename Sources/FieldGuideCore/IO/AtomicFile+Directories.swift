import FieldGuideDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension AtomicFile {
    /// Creates `path` and every missing directory above it (`mkdir -p`); nil when `path` is a
    /// directory afterwards, else the operating system's reason, naming the part of the path
    /// that stopped it when that is not `path` itself.
    ///
    /// Why not `FileManager.createDirectory(withIntermediateDirectories:)`: on Linux, a file in
    /// the way of a parent came back as an error with no reason in it, and the stages said
    /// `cannot create directory …: failed`.
    ///
    /// ```swift
    /// AtomicFile.makeDirectories("notes.txt/out")   // "Not a directory (notes.txt is a file)"
    /// ```
    public static func makeDirectories(_ path: String) -> String? {
        if let isDirectory = kind(path) { return isDirectory ? nil : "File exists (not a directory)" }
        let parent = FilePath.directory(of: path)
        if !parent.isEmpty, parent != path {
            switch kind(parent) {
            case true?: break
            case false?: return "\(String(cString: strerror(ENOTDIR))) (\(parent) is a file)"
            case nil: if let reason = makeDirectories(parent) { return reason }
            }
        }
        if mkdir(path, 0o755) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
        return kind(path) == true ? nil : "File exists (not a directory)"
    }

    /// true for a directory (links followed), false for anything else, nil for nothing there.
    private static func kind(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}
