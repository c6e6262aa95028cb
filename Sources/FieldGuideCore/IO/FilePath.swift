/// Path text, worked out without Foundation's `NSString` path methods.
///
/// Why: on Linux, `NSString.deletingLastPathComponent` traps on a relative path of one
/// character (`"a"`, `"."`, `"a/"`; Swift 6.3's swift-corelibs-foundation), so
/// `validate e` over a directory named `e`, or `fieldguide history --bundle a`, crashed.
/// Paths come from users, so the stages and tools take a directory's name from here.
///
/// ```swift
/// FilePath.directory(of: "seeds/bird_database.json")   // "seeds"
/// FilePath.directory(of: "a")                          // ""
/// FilePath.directory(of: "/a")                         // "/"
/// ```
public enum FilePath {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it
    /// where that does not trap: `""` for a single relative component (and for `""`), `"/"`
    /// for a component of the root, trailing and repeated slashes dropped (`"a//b/"` → `"a"`).
    public static func directory(of path: String) -> String {
        var bytes = Array(path.utf8)
        dropTrailingSlashes(&bytes)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == 0 { return "/" }
        bytes.removeSubrange(slash...)
        dropTrailingSlashes(&bytes)
        return bytes.isEmpty ? "/" : String(decoding: bytes, as: UTF8.self)
    }

    /// Drops the slashes a path ends with, keeping a root `"/"`.
    private static func dropTrailingSlashes(_ bytes: inout [UInt8]) {
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    }
}
