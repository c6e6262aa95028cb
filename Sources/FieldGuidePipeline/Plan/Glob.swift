import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-name patterns: `*`, `?` and `[…]` within one name (fnmatch), `**` for any depth of
/// directories. Matches are regular files, sorted by path; hidden names are skipped unless
/// the pattern spells the dot. Links to directories are followed, and each directory is
/// matched against each part of the pattern once: a link back up the tree (two links to `.`
/// made the walk double at every level, forever, before `pipeline run` had started a stage)
/// or a second link to the same directory adds nothing. A name that is not UTF-8 where the
/// pattern looks is an error naming it (`.io`), not a file left out without a word.
///
/// ```swift
/// Glob.files(matching: "input/birds/**/barchart*.txt")   // ["input/birds/ebird/barchart-fenland.txt"]
/// ```
enum Glob {
    static func files(matching pattern: String) throws(PipelineError) -> [String] {
        var components = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var base = pattern.hasPrefix("/") ? "/" : "."
        if pattern.hasPrefix("/") { components.removeFirst() }
        // The literal directories before the first pattern component.
        while components.count > 1, let first = components.first, !isPattern(first) {
            base = base == "." ? first : (base == "/" ? "/" + first : base + "/" + first)
            components.removeFirst()
        }
        var walk = Walk()
        do { try walk.walk(base, components[...]) } catch { throw PipelineError(error) }
        return Array(Set(walk.found)).sorted()
    }

    static func isPattern(_ component: String) -> Bool {
        component.contains(where: { "*?[".contains($0) })
    }

    /// One match of a pattern against the tree.
    private struct Walk {
        var found: [String] = []
        /// A directory matched against the pattern's last `remaining` components.
        private struct Visit: Hashable {
            let directory: FileIdentity
            let remaining: Int
        }
        /// The visits made so far.
        private var visited: Set<Visit> = []

        mutating func walk(_ directory: String, _ components: ArraySlice<String>) throws(LocatedError) {
            guard let component = components.first, let identity = FileIdentity(path: directory),
                  visited.insert(Visit(directory: identity, remaining: components.count)).inserted else { return }
            let rest = components.dropFirst()
            if component == "**" {
                try walk(directory, rest)
                for entry in try entries(directory) where isDirectory(join(directory, entry)) {
                    try walk(join(directory, entry), components)
                }
                return
            }
            let names = isPattern(component) ? try entries(directory).filter { matches(component, $0) } : [component]
            for name in names {
                let path = join(directory, name)
                if rest.isEmpty {
                    if isRegularFile(path) { found.append(path) }
                } else if isDirectory(path) {
                    try walk(path, rest)
                }
            }
        }
    }

    /// The names in `directory`, sorted, hidden ones left out; none when it cannot be listed
    /// (as a directory that is not there matches nothing).
    private static func entries(_ directory: String) throws(LocatedError) -> [String] {
        do { return try DirectoryWalk.names(in: directory) } catch where error.kind == .unreadable && error.file == directory {
            return []
        }
    }

    private static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// A regular file, after links: not a directory, and not a named pipe, socket or device,
    /// which a stage (or the fingerprint) would wait on forever.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
