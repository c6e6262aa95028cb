// swift-tools-version:6.1
//
// FieldGuide fuzz targets: a nested package (like Benchmarks/), built only by `make fuzz` with
// `--sanitize=fuzzer --sanitize=address`, so the main package and its tests stay unaffected.
// Each target is a libFuzzer entry point (`LLVMFuzzerTestOneInput`) over one reader, through
// the library's public API, the way a stage meets the bytes:
//
//   fuzz-faa-master      MASTER.txt through the FAA ingest (beside input/faa's ACFTREF, ENGINE)
//   fuzz-faa-files       ACFTREF, ENGINE, DEREG and RESERVED in turn through the same ingest
//   fuzz-faa-handoff     each file of the FAA hand-off in turn, its report rewritten to vouch for
//                        it (row counts crafted too), through emit-aircraft and emit-aircraft-index
//   fuzz-bird-json       the JSON parser, then the seed validator on the same bytes
//   fuzz-xmp, fuzz-gpx, fuzz-plist        the XML reader through each export reader (fuzz-plist
//                                         also the binary plist reader, from a bplist00 seed)
//   fuzz-ebird-csv, fuzz-capture-csv      the tabular export readers
//   fuzz-pipeline-file   the pipeline-file loader (YAML, checks)
//   fuzz-bird-sources    the taxonomy, a bar chart, the Status & Trends runs and a label list
//                        in turn through the birds ingest
//   fuzz-ebd             an eBird Basic Dataset file through aggregate-ebd's embedded engine
//   fuzz-reference-json  the ICAO type and Mode S reference tables of the manufacturer index
//   fuzz-aircraft-artifact, fuzz-aircraft-index, fuzz-birds-artifact, fuzz-history-artifact
//                        open (header-only and full) and query the artifacts; a custom
//                        mutator changes a word inside a section and reseals every checksum,
//                        so inputs reach the readers instead of stopping at a CRC
import PackageDescription

let library: [Target.Dependency] = [
    "FuzzSupport",
    .product(name: "FieldGuide", package: "FieldGuide"),
    .product(name: "FieldGuideArtifact", package: "FieldGuide"),
    .product(name: "FieldGuideBirds", package: "FieldGuide"),
    .product(name: "FieldGuideExports", package: "FieldGuide"),
    .product(name: "FieldGuideFAA", package: "FieldGuide"),
    .product(name: "FieldGuidePipeline", package: "FieldGuide"),
]

let targets = ["fuzz-faa-master", "fuzz-faa-files", "fuzz-faa-handoff", "fuzz-bird-json", "fuzz-xmp", "fuzz-gpx", "fuzz-plist", "fuzz-ebird-csv",
               "fuzz-capture-csv", "fuzz-pipeline-file", "fuzz-bird-sources", "fuzz-ebd", "fuzz-reference-json",
               "fuzz-aircraft-artifact", "fuzz-aircraft-index", "fuzz-birds-artifact", "fuzz-history-artifact"]

/// The targets fuzzing artifacts: they link the checksum-keeping custom mutator.
let artifactTargets: Set = ["fuzz-aircraft-artifact", "fuzz-aircraft-index", "fuzz-birds-artifact", "fuzz-history-artifact"]

let package = Package(
    name: "FieldGuideFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "FieldGuide", path: ".."), .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "FieldGuide", package: "FieldGuide"),
            .product(name: "FieldGuideArtifact", package: "FieldGuide"),
            .product(name: "FieldGuideArtifactWriter", package: "FieldGuide"),
            .product(name: "FieldGuideExports", package: "FieldGuide"),
        ]),
        .target(name: "ArtifactMutatorEntry", dependencies: ["FuzzSupport"]),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: library + (artifactTargets.contains(name) ? ["ArtifactMutatorEntry"] : [])
                            + (name == "fuzz-faa-handoff" ? [.product(name: "FieldGuideEmit", package: "FieldGuide"),
                                                              .product(name: "Crypto", package: "swift-crypto")] : []))
    },
    swiftLanguageModes: [.v6]
)
