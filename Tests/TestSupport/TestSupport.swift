import Foundation

/// Paths and helpers shared by the test targets.
public enum TestPaths {
    /// The package root (the directory holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `../shared/data` beside the project root, where the real public data lives.
    public static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// The project's own embedded default data.
    public static let input = packageRoot.appendingPathComponent("input")

    /// A file under `../shared/data`, or nil (with a visible note) when shared/ is absent.
    public static func shared(_ relative: String) -> URL? {
        let url = sharedData.appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("note: skipping: ../shared/data/\(relative) is not present beside the project")
        return nil
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory(_ label: String = "fieldguide") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Data {
    /// The bytes of a string as written by the FAA: UTF-8 with BOM, CRLF line ends.
    public static func faaFile(_ lines: [String]) -> Data {
        var data = Data([0xEF, 0xBB, 0xBF])
        for line in lines { data.append(contentsOf: Array((line + "\r\n").utf8)) }
        return data
    }
}
