import FieldGuideDiagnostics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The regular files below a directory: how the stages and the pipeline find the inputs a
/// directory holds.
///
/// Symbolic links are followed, the root's and every one below it: an operator's
/// `SOURCES/exports` is often a link to where the exports live, and a link inside the tree
/// reads as what it points to. Each directory and each file is read once, at the first path
/// that reaches it (names in sorted order, depth first): a link back up the tree
/// (`exports/again -> ..`) or a second link to the same place adds nothing, so no arrangement
/// of links loops or multiplies the walk. Names starting with a dot are skipped, and so are
/// dangling links and anything that is neither a file nor a directory.
///
/// Why not `FileManager.enumerator(atPath:)`: it does not enter a root that is a link (a
/// linked `SOURCES/exports` read as empty, and `ingest-exports` said so with exit 0), and a
/// hand-written recursion that follows links never ends on two links to `.`.
///
/// Bounds, checked as the walk goes: at most ``maxDepth`` directories deep and ``maxEntries``
/// names read; past either, a `.tooLarge` error at the directory concerned.
///
/// ```swift
/// try DirectoryWalk.files(under: "input/exports")
/// // ["captures/AirplaneID-captures.csv", "ebird/MyEBirdData-2016.csv", …]
/// ```
public enum DirectoryWalk {
    /// The deepest directory read, the root's children being at depth 1.
    public static let maxDepth = 32
    /// The most directory entries read in one walk.
    public static let maxEntries = 1_000_000

    /// The regular files below `root`, as paths relative to it, depth first with each
    /// directory's names in sorted order. `root` itself must be a directory (or a link to one).
    public static func files(under root: String) throws(LocatedError) -> [String] {
        var info = stat()
        guard stat(root, &info) == 0 else {
            throw LocatedError(errno == ENOENT ? .missingFile : .unreadable, file: root, message: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw LocatedError(.usage, file: root, expected: "a directory", found: "a file", message: "not a directory")
        }
        var walk = Walk(root: root)
        walk.directories.insert(FileIdentity(info))
        try walk.read(root, relative: "", depth: 0)
        return walk.found
    }

    /// The names in directory `path` (links followed), sorted, without hidden ones: what one
    /// step of the walk reads, for the pipeline's globs. A name that is not UTF-8 is an error
    /// naming it, as in ``files(under:)``; at most ``maxEntries`` names.
    package static func names(in path: String) throws(LocatedError) -> [String] {
        var walk = Walk(root: path)
        return try walk.names(in: path)
    }

    private struct Walk {
        let root: String
        var found: [String] = []
        var directories: Set<FileIdentity> = []
        var files: Set<FileIdentity> = []
        var entries = 0

        mutating func read(_ path: String, relative: String, depth: Int) throws(LocatedError) {
            guard depth <= DirectoryWalk.maxDepth else {
                throw LocatedError(.tooLarge, file: path, expected: "at most \(DirectoryWalk.maxDepth) directories below \(root)",
                                   found: "more", message: "too deep a tree of directories")
            }
            for name in try names(in: path) {
                let full = path.hasSuffix("/") ? path + name : path + "/" + name
                let inner = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard stat(full, &info) == 0 else { continue }  // a dangling link, or gone meanwhile
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if directories.insert(FileIdentity(info)).inserted { try read(full, relative: inner, depth: depth + 1) }
                case S_IFREG:
                    if files.insert(FileIdentity(info)).inserted { found.append(inner) }
                default:
                    continue
                }
            }
        }

        /// The names in directory `path`, sorted, without `.`, `..` and hidden ones.
        mutating func names(in path: String) throws(LocatedError) -> [String] {
            guard let directory = opendir(path) else {
                throw LocatedError(.unreadable, file: path, message: "cannot list the directory: \(String(cString: strerror(errno)))")
            }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                entries += 1
                guard entries <= DirectoryWalk.maxEntries else {
                    throw LocatedError(.tooLarge, file: path, expected: "at most \(DirectoryWalk.maxEntries) names below \(root)",
                                       found: "more", message: "too many files and directories")
                }
                let name = try withUnsafeBytes(of: entry.pointee.d_name) { (raw) throws(LocatedError) -> String? in
                    let bytes = raw.prefix { $0 != 0 }
                    return bytes.first == UInt8(ascii: ".") ? nil : try Self.name(bytes, in: path)
                }
                if let name { names.append(name) }
            }
            return names.sorted()
        }

        /// A directory entry's name as text. A name that is not UTF-8 is an error naming it
        /// (its other bytes as `\xE9`): decoded with replacement characters it named no file,
        /// and the file was left out without a word.
        static func name(_ bytes: UnsafeRawBufferPointer.SubSequence, in directory: String) throws(LocatedError) -> String {
            if let name = String(validating: bytes, as: UTF8.self) { return name }
            let shown = bytes.map { byte in
                (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\")
                    ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true)
            }
            let file = (directory.hasSuffix("/") ? directory : directory + "/") + shown.joined()
            throw LocatedError(.unreadable, file: file, expected: "a file name in UTF-8", found: "other bytes (shown as \\xNN)",
                               message: "a file name FieldGuide cannot read (rename the file)")
        }
    }
}

/// A file's identity on this machine, after links: its device and inode. Two paths name the
/// same file or directory exactly when their identities are equal (how `DirectoryWalk` and the
/// pipeline's globs read each place once, however links join them).
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// The identity of what `path` names, following links; nil when it cannot be stat'ed.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}
