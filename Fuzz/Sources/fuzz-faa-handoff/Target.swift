import Crypto
import FieldGuideEmit
import FieldGuideFAA
import FuzzSupport
import Foundation

/// The FAA hand-off through the emit stages: the input stands in for each of its CSV files in
/// turn (the others are input/faa's, as ingest-faa wrote them), with the report's SHA-256 and
/// size for it rewritten to match, so the bytes reach `emit-aircraft`'s and
/// `emit-aircraft-index`'s readers instead of stopping at the hash check. The report itself is
/// what a crafted hand-off makes it: its row counts are set past any file too.
let base = Fuzz.scratch + "/handoff-base"
let handOff = Fuzz.scratch + "/handoff"
let files = ["registrations.csv", "models.csv", "engines.csv", "deregistered.csv", "reserved.csv"]
let report = "faa-ingest.json"

/// input/faa's hand-off, made once.
let prepared: Bool = {
    guard let sources = try? FAASources.locate(Fuzz.root + "/input/faa") else { return false }
    return (try? FAAIngest().run(sources: sources, outputDirectory: base)) != nil
}()

/// The report of `base` with `file`'s entry matching `bytes`, and every row count at `Int.max`.
func report(for file: String, bytes: Data) -> Data? {
    guard var object = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + "/" + report)))) as? [String: Any],
          var outputs = object["outputs"] as? [[String: Any]], var sources = object["sources"] as? [[String: Any]] else { return nil }
    for index in outputs.indices where outputs[index]["file"] as? String == file {
        outputs[index]["sha256"] = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        outputs[index]["bytes"] = bytes.count
    }
    for index in sources.indices {
        var rows = sources[index]["rows"] as? [String: Any] ?? [:]
        rows["kept"] = Int.max
        sources[index]["rows"] = rows
    }
    object["outputs"] = outputs
    object["sources"] = sources
    return try? JSONSerialization.data(withJSONObject: object)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard prepared else { return 0 }
    let bytes = Data(bytes: start, count: count)
    for file in files {
        try? FileManager.default.removeItem(atPath: handOff)
        try? FileManager.default.copyItem(atPath: base, toPath: handOff)
        guard let rewritten = report(for: file, bytes: bytes) else { continue }
        FileManager.default.createFile(atPath: handOff + "/" + file, contents: bytes)
        FileManager.default.createFile(atPath: handOff + "/" + report, contents: rewritten)
        _ = try? AircraftEmit.run(handOff: handOff, outputDirectory: Fuzz.scratch + "/emit", environment: [:])
        _ = try? AircraftIndexEmit.run(handOff: handOff, outputDirectory: Fuzz.scratch + "/index",
                                       modes: Fuzz.root + "/input/aircraft/modes-registrations.json", environment: [:])
    }
    return 0
}
