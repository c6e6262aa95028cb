// swift-tools-version:6.1
//
// FieldGuide: a batch pipeline that turns public reference data (FAA aircraft registry,
// bird databases, metadata exports) into versioned, memory-mappable artifacts, plus the
// query library that apps link to read them.
//
// Data flows one way: sources → stages → artifacts → query library.
//   C shims         CCSV (libcsv, no pkg-config file), CLibXML2, CMalloc (glibc allocator tuning),
//                   CPrefetch (the prefetch hint)
//   foundations     FieldGuideDiagnostics  the located error every reader throws, the buffer it reads into
//                   FieldGuideWorkers      threads: background tasks, concurrent calls, a bounded queue
//                   FieldGuideBytes        short byte strings, and eight bytes tested, a word at a time (CSV, string pools, JSON strings)
//                   FieldGuideCSV, FieldGuideXML  streaming readers over libcsv and libxml2
//                   FieldGuideCore         stage plumbing: reports, digests, atomic files
//   artifact        FieldGuideArtifact     the read side of the format (what apps ship)
//                   FieldGuideArtifactWriter  builders, sorters, the streamed writer, manifest.json (tools, never apps)
//   sources         FieldGuideFAA, FieldGuideBirds, FieldGuideExports  (ingest stages)
//   emit            FieldGuideEmit         normalized hand-offs → artifacts (Aircraft/, Birds/)
//   query           FieldGuide             artifact read side + Diagnostics + Foundation only: iOS-safe
//   orchestration   FieldGuidePipeline     pipeline files, stage runs, staging, publish, change reports, metrics
//                   FieldGuideWebhook      the operator's webhook (AsyncHTTPClient), linked by the pipeline executable only
//   analysts        FieldGuideSQLite       aircraft.sqlite through the system SQLite (CSQLite), export-sqlite only
//   executables     StageCLI (shared entry point) and one executable per stage, fieldguide, pipeline
import PackageDescription

/// An executable stage: its library, the shared entry point and argument parsing.
func stage(_ name: String, _ libraries: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: libraries + ["FieldGuideCore", "StageCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    )
}

let package = Package(
    name: "FieldGuide",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "FieldGuide", targets: ["FieldGuide"]),
        .library(name: "FieldGuideArtifact", targets: ["FieldGuideArtifact"]),
        .library(name: "FieldGuideArtifactWriter", targets: ["FieldGuideArtifactWriter"]),
        .library(name: "FieldGuideFAA", targets: ["FieldGuideFAA"]),
        .library(name: "FieldGuideBirds", targets: ["FieldGuideBirds"]),
        .library(name: "FieldGuideExports", targets: ["FieldGuideExports"]),
        .library(name: "FieldGuideEmit", targets: ["FieldGuideEmit"]),
        .library(name: "FieldGuidePipeline", targets: ["FieldGuidePipeline"]),
        // For the benchmarks' tokenizing baseline (libcsv through the project's reader).
        .library(name: "FieldGuideCSV", targets: ["FieldGuideCSV"]),
        .executable(name: "ingest-faa", targets: ["ingest-faa"]),
        .executable(name: "ingest-birds", targets: ["ingest-birds"]),
        .executable(name: "ingest-exports", targets: ["ingest-exports"]),
        .executable(name: "validate", targets: ["validate"]),
        .executable(name: "aggregate-ebd", targets: ["aggregate-ebd"]),
        .executable(name: "emit-aircraft", targets: ["emit-aircraft"]),
        .executable(name: "emit-aircraft-index", targets: ["emit-aircraft-index"]),
        .executable(name: "emit-birds", targets: ["emit-birds"]),
        .executable(name: "fieldguide", targets: ["fieldguide"]),
        .executable(name: "pipeline", targets: ["pipeline"]),
        .executable(name: "fetch-faa", targets: ["fetch-faa"]),
        .executable(name: "export-sqlite", targets: ["export-sqlite"]),
        .executable(name: "record-history", targets: ["record-history"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The HTTP client of the fetch stage and the webhook (and, in tests, the local servers'
        // NIO): only FieldGuideFetch, FieldGuideWebhook and their executables link them, never
        // the query library.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // For the webhook's TLS failures in words (AsyncHTTPClient already depends on it).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // MARK: C shims (a modulemap and shim.h each)
        .systemLibrary(name: "CCSV", path: "Sources/CCSV", providers: [.apt(["libcsv-dev"])]),
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // glibc's allocator tuning (<malloc.h>), for the stages' processes (`StageMemory`).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),

        // MARK: Foundations: no artifact code below this line
        .target(name: "FieldGuideDiagnostics"),
        .target(name: "FieldGuideWorkers"),
        // Word-at-a-time helpers for short byte strings: shared by the CSV writer and the
        // artifact's read side (plain Swift, so the query library still builds for iOS).
        .target(name: "FieldGuideBytes"),
        // The FAA files' padding dropped 64 bytes at a time where the processor allows (CPaddingFilter).
        .target(name: "CPaddingFilter", path: "Sources/CPaddingFilter"),
        // One byte value counted 64 bytes at a time (a split file's line feeds before its cut).
        .target(name: "CByteCount", path: "Sources/CByteCount"),
        .target(name: "FieldGuideCSV", dependencies: ["CByteCount", "CCSV", "CPaddingFilter", "FieldGuideBytes", "FieldGuideDiagnostics", "FieldGuideWorkers"]),
        // libxml2 stays behind this target: FoundationXML and a raw libxml2 module clash in one module.
        .target(name: "FieldGuideXML", dependencies: ["CLibXML2", "FieldGuideDiagnostics"]),
        .target(
            name: "FieldGuideCore",
            dependencies: ["FieldGuideDiagnostics", "FieldGuideCSV", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // MARK: Artifact format: the read side ships in apps, the writer only in emit stages
        // CRC-32 folding with carry-less multiplication, for the sections' checksums (C: intrinsics).
        .target(name: "CCRC32Fold", path: "Sources/CCRC32Fold"),
        .target(name: "FieldGuideArtifact", dependencies: ["CCRC32Fold", "CPrefetch", "FieldGuideBytes"]),
        .target(name: "FieldGuideArtifactWriter", dependencies: ["FieldGuideArtifact", "FieldGuideBytes", "FieldGuideCore", "FieldGuideWorkers"]),

        // MARK: Sources: each reads raw files into a normalized hand-off (the ingest stages)
        .target(
            name: "FieldGuideFAA",
            dependencies: ["FieldGuideCSV", "FieldGuideCore", "FieldGuideWorkers", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // Birds link every source to taxa once, with the artifact's name folding (names.csv).
        .target(name: "FieldGuideBirds", dependencies: ["FieldGuideBytes", "FieldGuideCSV", "FieldGuideCore", "FieldGuideArtifact", "FieldGuideDiagnostics"]),
        // Exports resolve what users saw against the published artifacts, through the query
        // library, or bird names against the birds hand-off (FieldGuideBirds).
        // ICAO type designators come from FieldGuideFAA's aircraft reference tables.
        .target(name: "FieldGuideExports", dependencies: ["FieldGuideXML", "FieldGuideCSV", "FieldGuideBytes", "FieldGuideCore", "FieldGuide", "FieldGuideBirds", "FieldGuideFAA"]),

        // MARK: Fetch: downloads a source over HTTP (conditional, bounded, checked, kept)
        .target(
            name: "FieldGuideFetch",
            dependencies: [
                "FieldGuideCore", "FieldGuideDiagnostics", "FieldGuideFAA", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // MARK: Emit: normalized hand-offs → artifacts
        .target(
            name: "FieldGuideEmit",
            dependencies: [
                "FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuideCSV", "FieldGuideCore", "FieldGuideWorkers", "FieldGuideFAA",
                "FieldGuideBirds", "CPrefetch",
            ]
        ),

        // MARK: Query library (what apps link: the artifact's read side + Foundation only)
        // Diagnostics is pure Swift without dependencies: closest-value suggestions and the
        // located error of a bad query parameter.
        .target(name: "FieldGuide", dependencies: ["FieldGuideArtifact", "FieldGuideDiagnostics"]),

        // MARK: Orchestration: runs stage executables as processes, publishes, reports changes
        .target(
            name: "FieldGuidePipeline",
            // The artifact writer for the registry history each published build carries (history.fgb).
            dependencies: ["FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuideCore", "FieldGuideDiagnostics", "FieldGuideWorkers", "FieldGuide",
                           .product(name: "Yams", package: "Yams")]
        ),

        // The operator's webhook, through the same HTTP client as fetch-faa (not URLSession:
        // on Linux that loads libcurl and some thirty libraries behind it into every `pipeline`
        // run, a third of an unchanged rerun's start). Only the pipeline executable links it.
        .target(
            name: "FieldGuideWebhook",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // aircraft.sqlite for analysts, through the system SQLite (export-sqlite only).
        .target(name: "FieldGuideSQLite", dependencies: ["CSQLite", "FieldGuide", "FieldGuideArtifact", "FieldGuideCore", "FieldGuideDiagnostics"]),

        // MARK: Executables (thin: parse arguments, call a library, print, choose the exit code)
        .target(
            name: "StageCLI",
            dependencies: [
                "CMalloc", "FieldGuideArtifact", "FieldGuideCore", "FieldGuideDiagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        stage("ingest-faa", ["FieldGuideFAA"]),
        stage("ingest-birds", ["FieldGuideBirds"]),
        stage("validate", ["FieldGuideBirds"]),
        stage("aggregate-ebd", ["FieldGuideBirds"]),
        stage("ingest-exports", ["FieldGuideExports", "FieldGuideFAA"]),
        stage("emit-aircraft", ["FieldGuideEmit", "FieldGuideFAA", "FieldGuideArtifact"]),
        stage("emit-aircraft-index", ["FieldGuideEmit"]),
        stage("emit-birds", ["FieldGuideEmit"]),
        stage("fieldguide", ["FieldGuide", "FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuidePipeline", "FieldGuideExports", "FieldGuideCSV", "FieldGuideDiagnostics"]),
        stage("pipeline", ["FieldGuidePipeline", "FieldGuideWebhook"]),
        stage("fetch-faa", ["FieldGuideFetch"]),
        stage("export-sqlite", ["FieldGuideSQLite", "FieldGuide", "FieldGuideEmit", "FieldGuideArtifactWriter"]),
        // The registry history of the build about to publish (history.fgb), before export-sqlite reads it.
        stage("record-history", ["FieldGuidePipeline"]),

        // MARK: Tests: unit tests per library, end-to-end tests through the executables
        .target(name: "TestSupport", dependencies: ["FieldGuideArtifact", "FieldGuideArtifactWriter"], path: "Tests/TestSupport"),
        .testTarget(name: "FieldGuideCSVTests", dependencies: ["FieldGuideBytes", "FieldGuideCSV", "FieldGuideDiagnostics", "FieldGuideWorkers", "TestSupport"]),
        .testTarget(
            name: "FieldGuideArtifactTests",
            dependencies: [
                "FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuideCore", "FieldGuideDiagnostics", "FieldGuideWorkers", "TestSupport",
            ]
        ),
        .testTarget(name: "FieldGuideXMLTests", dependencies: ["FieldGuideXML", "TestSupport"]),
        .testTarget(
            name: "FieldGuideFAATests",
            dependencies: [
                "FieldGuideFAA", "FieldGuideCore", "FieldGuideCSV", "TestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "FieldGuideEndToEndTests",
            dependencies: [
                "FieldGuide", "FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuideDiagnostics", "FieldGuideEmit", "FieldGuideFAA",
                "FieldGuideCore", "FieldGuidePipeline", "StageCLI", "TestSupport", "FieldGuideExports",
            ]
        ),
        .testTarget(name: "FieldGuideBirdsTests", dependencies: ["FieldGuideBirds", "FieldGuideCore", "FieldGuideCSV", "TestSupport"]),
        .testTarget(
            name: "FieldGuideExportsTests",
            dependencies: [
                "FieldGuideExports", "FieldGuideXML", "FieldGuideCore", "FieldGuide", "FieldGuideFAA", "FieldGuideEmit",
                "FieldGuideBirds", "FieldGuideCSV", "TestSupport",
            ]
        ),
        .testTarget(
            name: "FieldGuidePipelineTests",
            dependencies: [
                "FieldGuidePipeline", "FieldGuide", "FieldGuideArtifact", "FieldGuideArtifactWriter", "FieldGuideCore", "FieldGuideWebhook", "CSQLite",
                "TestSupport",
            ]
        ),
        // The fetch stage against a local HTTP server (NIO) on 127.0.0.1.
        .testTarget(
            name: "FieldGuideFetchTests",
            dependencies: [
                "FieldGuideFetch", "FieldGuidePipeline", "FieldGuideCore", "TestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FieldGuideBirdsArtifactTests",
            dependencies: ["FieldGuide", "FieldGuideEmit", "FieldGuideBirds", "FieldGuideArtifact", "FieldGuideCSV", "FieldGuideCore", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
