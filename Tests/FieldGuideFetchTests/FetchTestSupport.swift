import FieldGuideCore
import Foundation
import TestSupport
import ZIPFoundation

/// ZIPs in the FAA's shape, built from `input/faa`, and runs of the built `fetch-faa`.
enum FetchFixtures {
    /// `ReleasableAircraft.zip`'s bytes: ACFTREF, ENGINE and MASTER from `input/faa`, less
    /// `removing`, plus `extra` entries (name → text).
    static func zip(removing: Set<String> = [], extra: [String: String] = [:]) throws -> [UInt8] {
        let directory = try TestPaths.temporaryDirectory("fetch-zip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ReleasableAircraft.zip")
        let archive = try Archive(url: url, accessMode: .create)
        var files: [(String, Data)] = []
        for name in ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt"] where !removing.contains(name) {
            files.append((name, try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/" + name))))
        }
        files += extra.sorted { $0.key < $1.key }.map { ($0.key, Data($0.value.utf8)) }
        for (name, data) in files {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return Array(try Data(contentsOf: url))
    }

    /// An HTML error page, as a misconfigured mirror or a bot wall serves it with status 200.
    static let htmlPage = Array("<!DOCTYPE html>\n<html><head><title>Access Denied</title></head><body>Request blocked.</body></html>\n".utf8)

    /// Runs `fetch-faa URL --output OUT` with short time-outs and backoff, plus `extra`.
    static func run(_ url: String, output: String, _ extra: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestPaths.run("fetch-faa", [url, "--output", output, "--timeout", "2", "--retry-delay", "0.05"] + extra)
    }

    static func sha256(_ bytes: [UInt8]) -> String { FileDigest.sha256(bytes) }
}
