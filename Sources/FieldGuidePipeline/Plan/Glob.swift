import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-name patterns: `*`, `?` and `[…]` within one name (fnmatch), `**` for any depth of
/// directories. Matches are regular files, sorted by path; hidden names are skipped unless
/// the pattern spells the dot.
///
/// ```swift
/// Glob.files(matching: "input/birds/**/barchart*.txt")   // ["input/birds/ebird/barchart-fenland.txt"]
/// ```
enum Glob {
    static func files(matching pattern: String) -> [String] {
        var components = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var base = pattern.hasPrefix("/") ? "/" : "."
        if pattern.hasPrefix("/") { components.removeFirst() }
        // The literal directories before the first pattern component.
        while components.count > 1, let first = components.first, !isPattern(first) {
            base = base == "." ? first : (base == "/" ? "/" + first : base + "/" + first)
            components.removeFirst()
        }
        var found: [String] = []
        walk(base, components[...], into: &found)
        return Array(Set(found)).sorted()
    }

    static func isPattern(_ component: String) -> Bool {
        component.contains(where: { "*?[".contains($0) })
    }

    private static func walk(_ directory: String, _ components: ArraySlice<String>, into found: inout [String]) {
        guard let component = components.first else { return }
        let rest = components.dropFirst()
        if component == "**" {
            walk(directory, rest, into: &found)
            for entry in entries(directory) where isDirectory(join(directory, entry)) {
                walk(join(directory, entry), components, into: &found)
            }
            return
        }
        let names = isPattern(component) ? entries(directory).filter { matches(component, $0) } : [component]
        for name in names {
            let path = join(directory, name)
            if rest.isEmpty {
                if isRegularFile(path) { found.append(path) }
            } else if isDirectory(path) {
                walk(path, rest, into: &found)
            }
        }
    }

    private static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
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

    static func isRegularFile(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
    }
}
