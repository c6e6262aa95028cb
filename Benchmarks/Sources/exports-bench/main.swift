import BenchSupport
import FieldGuideExports
import Foundation

/// Generates a GPX file, an Apple XML property list of app records and an XMP sidecar at two sizes (10 MB and
/// 100 MB by default) in a temporary directory, then streams each through the exports readers
/// (libxml2 SAX2 push parser → observations) and prints throughput and peak memory. Peak RSS
/// (getrusage ru_maxrss) is a high-water mark, so the small files run first: a flat figure
/// from 10 MB to 100 MB means memory does not grow with the file. Target: under 100 MB.
/// The large files are read `ROUNDS` times, alternating with `xmllint --stream --noout` (libxml2's
/// reader alone): target at least half its throughput, compared on CPU time (the machine is shared).
///
///     exports-bench [LARGE_MB=100] [SMALL_MB=10] [ROUNDS=3]
///     exports-bench read FILE…            # each file read once (for callgrind)
///     EXPORTS_BENCH_KEEP=DIR exports-bench …   # the files written to DIR and kept
///     EXPORTS_BENCH_INGEST=BIN exports-bench …  # also the ingest-exports stage, end to end, on the large files
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let largeMB = arguments.first ?? 100
let smallMB = arguments.dropFirst().first ?? 10
let rounds = max(1, arguments.dropFirst(2).first ?? 3)

/// `exports-bench read FILE…`: each file read once through the exports readers, nothing else (no
/// files generated, no xmllint), for profiling one reader (`valgrind --tool=callgrind`).
if CommandLine.arguments.dropFirst().first == "read" {
    for path in CommandLine.arguments.dropFirst(2) { _ = try measure((path as NSString).lastPathComponent, path) }
    exit(0)
}

/// `EXPORTS_BENCH_KEEP=DIR` writes the generated files to DIR and keeps them (to time
/// `ingest-exports` on the same files); otherwise they live in a temporary directory.
let keep = ProcessInfo.processInfo.environment["EXPORTS_BENCH_KEEP"].map { URL(fileURLWithPath: $0) }
let directory = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("exports-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }

/// Removes a generated file once measured, unless the files are kept.
func discard(_ path: String) { if keep == nil { try? FileManager.default.removeItem(atPath: path) } }

/// Streams generated text to a file in 1 MiB pieces until it reaches `megabytes`.
func generate(_ name: String, megabytes: Int, head: String, tail: String, record: (inout SplitMix64, Int) -> String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let target = megabytes << 20
    var written = 0, index = 0
    var rng = SplitMix64(seed: 2026)
    var buffer = head
    while written + buffer.utf8.count < target {
        buffer += record(&rng, index)
        index += 1
        if buffer.utf8.count >= 1 << 20 {
            handle.write(Data(buffer.utf8))
            written += buffer.utf8.count
            buffer = ""
        }
    }
    handle.write(Data((buffer + tail).utf8))
    return path
}

func coordinate(_ rng: inout SplitMix64, _ span: Double) -> String { String(format: "%.6f", (rng.unit() * 2 - 1) * span) }

func gpx(_ megabytes: Int) throws -> String {
    try generate("track-\(megabytes).gpx", megabytes: megabytes,
                 head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"exports-bench\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><name>Generated</name><trkseg>\n",
                 tail: "</trkseg></trk>\n</gpx>\n") { rng, i in
        let second = i % 86_400
        return "<trkpt lat=\"\(coordinate(&rng, 80))\" lon=\"\(coordinate(&rng, 179))\"><ele>\(rng.within(0...4000)).\(rng.within(0...9))</ele><time>2024-05-\(String(format: "%02d", 1 + (i / 86_400) % 28))T\(String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60))Z</time><name>P\(i)</name></trkpt>\n"
    }
}

let species = ["Grey Heron", "Eurasian Wren", "Common Cuckoo", "Great Crested Grebe", "Mallard", "Common Swift", "Barn Swallow", "Song Thrush"]

func plist(_ megabytes: Int) throws -> String {
    try generate("recordings-\(megabytes).plist", megabytes: megabytes,
                 head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<array>\n",
                 tail: "</array>\n</plist>\n") { rng, i in
        """
        \t<dict>
        \t\t<key>species</key>
        \t\t<string>\(rng.pick(species))</string>
        \t\t<key>title</key>
        \t\t<string>Recording \(i)</string>
        \t\t<key>notes</key>
        \t\t<string>Generated note \(rng.within(0...999_999)) for a benchmark record.</string>
        \t\t<key>latitude</key>
        \t\t<real>\(coordinate(&rng, 80))</real>
        \t\t<key>longitude</key>
        \t\t<real>\(coordinate(&rng, 179))</real>
        \t\t<key>date</key>
        \t\t<date>2024-05-18T04:\(String(format: "%02d:%02d", i / 60 % 60, i % 60))Z</date>
        \t\t<key>audioFileName</key>
        \t\t<string>rec-\(i).m4a</string>
        \t\t<key>starred</key>
        \t\t<\(rng.chance(perMille: 500) ? "true" : "false")/>
        \t</dict>

        """
    }
}

/// A darktable sidecar (the shape of `photoprism_darktable_aurora.jpg.xmp` in the shared data)
/// whose editing history (`darktable:history`, an `rdf:Seq` of `rdf:li` with ten attributes
/// each) fills the file: attribute-heavy markup the XMP reader must pass over, one observation.
func xmp(_ megabytes: Int) throws -> String {
    let operations = ["colorin", "colorout", "gamma", "flip", "exposure", "temperature", "highlights", "demosaic"]
    return try generate("sidecar-\(megabytes).xmp", megabytes: megabytes,
                 head: """
                 <?xml version="1.0" encoding="UTF-8"?>
                 <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
                  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                   <rdf:Description rdf:about=""
                     xmlns:exif="http://ns.adobe.com/exif/1.0/"
                     xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                     xmlns:darktable="http://darktable.sf.net/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/"
                     xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
                    exif:DateTimeOriginal="2024-05-18T04:12:09"
                    exif:GPSLongitude="179,59.546814W"
                    exif:GPSLatitude="87,21.291962N"
                    xmp:Rating="1"
                    darktable:xmp_version="5"
                    darktable:history_end="4">
                    <darktable:history>
                     <rdf:Seq>

                 """,
                 tail: """
                     </rdf:Seq>
                    </darktable:history>
                    <dc:title>
                     <rdf:Alt>
                      <rdf:li xml:lang="x-default">Generated sidecar</rdf:li>
                     </rdf:Alt>
                    </dc:title>
                    <lr:hierarchicalSubject>
                     <rdf:Bag>
                      <rdf:li>Birds|Herons|Grey Heron</rdf:li>
                      <rdf:li>Places|Iceland</rdf:li>
                     </rdf:Bag>
                    </lr:hierarchicalSubject>
                   </rdf:Description>
                  </rdf:RDF>
                 </x:xmpmeta>

                 """) { rng, i in
        """
              <rdf:li
               darktable:num="\(i)"
               darktable:operation="\(rng.pick(operations))"
               darktable:enabled="\(rng.within(0...1))"
               darktable:modversion="\(rng.within(1...7))"
               darktable:params="gz48eJzjZBgFowABWAbaAaNgwAEAMNgADg=="
               darktable:multi_name=""
               darktable:multi_name_hand_edited="0"
               darktable:multi_priority="\(rng.within(0...3))"
               darktable:blendop_version="14"
               darktable:blendop_params="gz11eJxjYIAACQYYOOHEgAZY0QWAgBGLGANDgz0Ej1Q+dcF/IADRAGpyHQU="/>

        """
    }
}

func peakRSSMB() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024   // Linux: kilobytes
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576   // macOS: bytes
    #endif
}

/// CPU seconds (user + system) used so far by this process, or by its waited-for children.
func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Wall and CPU seconds of one run of `body`, CPU counted for this process or its children.
func timed(children: Bool = false, _ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let cpu = cpuSeconds(children: children)
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, cpuSeconds(children: children) - cpu)
}

/// The median of some numbers.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Streams the file through the format reader, counting observations.
func measure(_ label: String, _ path: String) throws -> (wall: Double, cpu: Double) {
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var observations = 0, issues = 0
    let sink = RecordSink(observe: { _ in observations += 1 }, issue: { _ in issues += 1 })
    let time = try timed { _ = try ExportFileReader.read(path: path, sink: sink) }
    let megabytes = Double(bytes) / 1_048_576
    print("\(label.rightPadded(22)) \(String(format: "%6.1f MB", megabytes))  \(grouped(observations).leftPadded(11)) observations  \(String(format: "%6.2f s (%5.2f s CPU)  %6.1f MB/s  peak RSS %6.1f MB", time.wall, time.cpu, megabytes / time.wall, peakRSSMB()))\(issues > 0 ? "  (\(issues) issues)" : "")")
    return time
}

/// `xmllint --stream --noout` (libxml2's own reader, nothing done with the nodes) over the file.
func xmllint(_ path: String) throws -> (wall: Double, cpu: Double) {
    try timed(children: true) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--stream", "--noout", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
    }
}

/// The target: the exports readers at least half of xmllint's throughput on the same file.
let xmllintShareTarget = 0.5

/// Alternates `rounds` reads of the file by the exports readers and by xmllint, and prints the
/// medians (wall and CPU) and our throughput as a share of xmllint's; returns xmllint's CPU median.
@discardableResult
func compare(_ label: String, _ path: String, rounds: Int) throws -> Double {
    var ours: [(wall: Double, cpu: Double)] = [], theirs: [(wall: Double, cpu: Double)] = []
    for round in 1...rounds {
        ours.append(try measure("\(label), round \(round)", path))
        theirs.append(try xmllint(path))
    }
    let megabytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
    let wall = (median(ours.map(\.wall)), median(theirs.map(\.wall))), cpu = (median(ours.map(\.cpu)), median(theirs.map(\.cpu)))
    let share = cpu.1 / cpu.0
    print("\(label): exports readers \(String(format: "%.1f MB/s (%.2f s CPU)", megabytes / wall.0, cpu.0)), xmllint --stream --noout "
        + "\(String(format: "%.1f MB/s (%.2f s CPU)", megabytes / wall.1, cpu.1)), medians of \(rounds); "
        + "CPU share \(String(format: "%.2f", share))× (target ≥ \(String(format: "%.1f", xmllintShareTarget))×: \(share >= xmllintShareTarget ? "met" : "MISSED"))")
    return cpu.1
}

/// `EXPORTS_BENCH_INGEST=BIN` (`make bench` sets it): the stage users run, `ingest-exports`, once
/// over each large file, end to end (read, resolve, write `observations.csv`), against the same
/// xmllint figure. The readers alone are held to half of xmllint; the stage to a quarter. Until
/// the twenty-third session the stage copied its output buffer (up to 1 MiB) once a record:
/// 136.6 s for the 100 MB GPX whose reader takes 1 s, and no benchmark ran the stage.
let ingest = ProcessInfo.processInfo.environment["EXPORTS_BENCH_INGEST"]
let stageShareTarget = 0.25

func stage(_ label: String, _ path: String, binary: String, xmllintCPU: Double) throws {
    let output = directory.appendingPathComponent("ingest-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    var status: Int32 = 0
    let time = try timed(children: true) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [path, "--output", output]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        status = process.terminationStatus
    }
    let megabytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
    let share = xmllintCPU / time.cpu
    print("\(label): ingest-exports end to end \(String(format: "%.1f MB/s, %.2f s (%.2f s CPU)", megabytes / time.wall, time.wall, time.cpu)), exit \(status); "
        + "CPU share of xmllint \(String(format: "%.2f", share))× (target ≥ \(String(format: "%.2f", stageShareTarget))×: "
        + "\(share >= stageShareTarget && status == 0 ? "met" : "MISSED"))")
}

print("== Exports: streaming XML through libxml2 (SAX2 push parser), peak RSS is the process high-water mark")
for (label, path) in [("GPX \(smallMB) MB", try gpx(smallMB)), ("plist \(smallMB) MB", try plist(smallMB)), ("XMP \(smallMB) MB", try xmp(smallMB))] {
    _ = try measure(label, path)
    discard(path)
}
for (label, path) in [("GPX \(largeMB) MB", try gpx(largeMB)), ("plist \(largeMB) MB", try plist(largeMB)), ("XMP \(largeMB) MB", try xmp(largeMB))] {
    let xmllintCPU = try compare(label, path, rounds: rounds)
    if let ingest { try stage(label, path, binary: ingest, xmllintCPU: xmllintCPU) }
    discard(path)
}
