// swift-tools-version:6.1
//
// FieldGuide benchmarks: a nested package, so the main package stays free of benchmark code
// and its build is untouched. It links the query library (the artifact's read side) and, for
// the generated birds artifact, the emit stage's builders; the pipeline stages run as the
// parent's executables.
//
//   generate-faa-data   full-size synthetic FAA releasable files (ACFTREF, ENGINE, MASTER)
//   fieldguide-bench    open, lookup and registry search latency of an aircraft artifact
//   index-bench         the manufacturer index: gzip size against its sources, open, search and match latency
//   birds-bench         validating an 11,000-species bird database with hotspots (FieldGuideBirds)
//   birds-artifact-bench  a generated 11,000-species birds artifact: size, open, identify, region/month lookups
//   exports-bench       XML throughput and peak memory of the exports readers on 100 MB GPX, plist and XMP
//   generate-ebd-data   a generated eBird Basic Dataset (1M rows by default) and its sampling-event file
//   ebd-tokenize        the physical limit for aggregate-ebd: libcsv tokenizing an EBD file, bare and through FieldGuideCSV
//
// Build from this directory: `swift build -c release --product generate-faa-data`.
import PackageDescription

let package = Package(
    name: "FieldGuideBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "FieldGuide", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libcsv itself, for the tokenizing baseline (no pkg-config file: the header and `-lcsv`).
        .systemLibrary(name: "CLibCSV", path: "Sources/CLibCSV"),
        // The system libsqlite3 (C API), the lookup baseline of fieldguide-bench (libsqlite3-dev); not
        // named CSQLite, which the parent package declares (target names are unique in one graph).
        .systemLibrary(name: "CSQLiteBench", path: "Sources/CSQLiteBench", providers: [.apt(["libsqlite3-dev"])]),
        // The seeded random generator, number formatting and the latency timer the tools share.
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "generate-faa-data",
            dependencies: ["BenchSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "fieldguide-bench",
            dependencies: [
                "BenchSupport", "CSQLiteBench",
                .product(name: "FieldGuide", package: "FieldGuide"),
                .product(name: "FieldGuideArtifact", package: "FieldGuide"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "index-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "FieldGuide", package: "FieldGuide"),
                .product(name: "FieldGuideArtifact", package: "FieldGuide"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "birds-bench",
            dependencies: ["BenchSupport", .product(name: "FieldGuideBirds", package: "FieldGuide")]
        ),
        .executableTarget(
            name: "birds-artifact-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "FieldGuide", package: "FieldGuide"),
                .product(name: "FieldGuideArtifact", package: "FieldGuide"),
                .product(name: "FieldGuideArtifactWriter", package: "FieldGuide"),
                .product(name: "FieldGuideEmit", package: "FieldGuide"),
            ]
        ),
        .executableTarget(
            name: "generate-ebd-data",
            dependencies: ["BenchSupport", .product(name: "FieldGuideBirds", package: "FieldGuide")]
        ),
        .executableTarget(
            name: "ebd-tokenize",
            dependencies: ["BenchSupport", "CLibCSV", .product(name: "FieldGuideCSV", package: "FieldGuide")]
        ),
        .executableTarget(
            name: "exports-bench",
            dependencies: ["BenchSupport", .product(name: "FieldGuideExports", package: "FieldGuide")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
