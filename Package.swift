// swift-tools-version:6.1
//
// FieldGuide: a batch pipeline that turns public reference data (FAA aircraft registry,
// bird databases, metadata exports) into versioned, memory-mappable artifacts, plus the
// query library that apps link to read them.
//
// Data flows one way: sources → stage libraries → artifacts → query library.
//   C shims        CCSV, CLibXML2             (system libraries, no pkg-config for libcsv)
//   foundations    FieldGuideCSV, FieldGuideXML, FieldGuideCore, FieldGuideArtifact
//   sources        FieldGuideFAA
//   indexing       FieldGuideIndex
//   query          FieldGuide                 (FieldGuideArtifact + Foundation only: iOS-safe)
//   orchestration  FieldGuidePipeline         (pipeline files, stage runs, staging, publish)
//   executables    ingest-faa, emit-aircraft, ingest-birds, validate, emit-birds,
//                  ingest-exports, fieldguide, pipeline
import PackageDescription

let package = Package(
    name: "FieldGuide",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "FieldGuide", targets: ["FieldGuide"]),
        .library(name: "FieldGuideArtifact", targets: ["FieldGuideArtifact"]),
        .executable(name: "ingest-faa", targets: ["ingest-faa"]),
        .executable(name: "emit-aircraft", targets: ["emit-aircraft"]),
        .executable(name: "fieldguide", targets: ["fieldguide"]),
        .library(name: "FieldGuideBirds", targets: ["FieldGuideBirds"]),
        .executable(name: "ingest-birds", targets: ["ingest-birds"]),
        .executable(name: "validate", targets: ["validate"]),
        .library(name: "FieldGuideExports", targets: ["FieldGuideExports"]),
        .library(name: "FieldGuideIndex", targets: ["FieldGuideIndex"]),
        .executable(name: "emit-birds", targets: ["emit-birds"]),
        .executable(name: "ingest-exports", targets: ["ingest-exports"]),
        .library(name: "FieldGuidePipeline", targets: ["FieldGuidePipeline"]),
        .executable(name: "pipeline", targets: ["pipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // MARK: C shims
        .systemLibrary(
            name: "CCSV",
            path: "Sources/CCSV",
            providers: [.apt(["libcsv-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),

        // MARK: Foundations
        .target(name: "FieldGuideCSV", dependencies: ["CCSV"]),
        .target(
            name: "FieldGuideCore",
            dependencies: [
                "FieldGuideCSV", "FieldGuideArtifact",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "FieldGuideArtifact"),
        .target(name: "FieldGuideXML", dependencies: ["CLibXML2"]),

        // MARK: Sources
        .target(
            name: "FieldGuideFAA",
            dependencies: [
                "FieldGuideCSV", "FieldGuideCore",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),

        // MARK: Sources: birds (issue 3: FieldGuideBirds, ingest-birds, validate)
        // BIRDS-TARGETS-BEGIN
        .target(name: "FieldGuideBirds", dependencies: ["FieldGuideCSV", "FieldGuideCore", "FieldGuideArtifact"]),
        .executableTarget(
            name: "ingest-birds",
            dependencies: [
                "FieldGuideBirds", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "validate",
            dependencies: [
                "FieldGuideBirds", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // BIRDS-TARGETS-END

        // MARK: Sources: metadata exports (issue 5: FieldGuideExports, ingest-exports)
        // EXPORTS-TARGETS-BEGIN
        .target(
            name: "FieldGuideExports",
            dependencies: ["FieldGuideXML", "FieldGuideCSV", "FieldGuideCore", "FieldGuideArtifact", "FieldGuide"]
        ),
        .executableTarget(
            name: "ingest-exports",
            dependencies: [
                "FieldGuideExports", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // EXPORTS-TARGETS-END

        // MARK: Indexing
        .target(name: "FieldGuideIndex", dependencies: ["FieldGuideArtifact", "FieldGuideCSV", "FieldGuideFAA", "FieldGuideCore", "FieldGuideBirds"]),

        // MARK: Birds artifact (issue 4: tables, index, emit stage)
        // BIRDS-ARTIFACT-TARGETS-BEGIN
        .executableTarget(
            name: "emit-birds",
            dependencies: [
                "FieldGuideIndex", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // BIRDS-ARTIFACT-TARGETS-END

        // MARK: Orchestration (issue 6: declarative pipelines, staging, publish, change reports)
        // The pipeline runs stage executables as processes; it links the query library only to
        // write the change report of each published build.
        .target(
            name: "FieldGuidePipeline",
            dependencies: [
                "FieldGuideArtifact", "FieldGuideCore", "FieldGuide",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "pipeline",
            dependencies: [
                "FieldGuidePipeline", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Query library (what apps link: artifact format + Foundation only)
        .target(name: "FieldGuide", dependencies: ["FieldGuideArtifact"]),

        // MARK: Executables (thin: parse arguments, call a library, print, choose the exit code)
        .target(
            name: "StageCLI",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "ingest-faa",
            dependencies: [
                "FieldGuideFAA", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "emit-aircraft",
            dependencies: [
                "FieldGuideIndex", "FieldGuideFAA", "FieldGuideCore", "FieldGuideArtifact", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "fieldguide",
            dependencies: [
                "FieldGuide", "FieldGuideArtifact", "FieldGuideCore", "StageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FieldGuideCSVTests", dependencies: ["FieldGuideCSV", "TestSupport"]),
        .testTarget(name: "FieldGuideArtifactTests", dependencies: ["FieldGuideArtifact", "TestSupport"]),
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
            dependencies: ["FieldGuide", "FieldGuideIndex", "FieldGuideFAA", "FieldGuideCore", "TestSupport"]
        ),
        .testTarget(name: "FieldGuideBirdsTests", dependencies: ["FieldGuideBirds", "FieldGuideCore", "TestSupport"]),
        .testTarget(
            name: "FieldGuideExportsTests",
            dependencies: [
                "FieldGuideExports", "FieldGuideXML", "FieldGuideCore", "FieldGuide", "FieldGuideFAA", "FieldGuideIndex",
                "FieldGuideBirds", "TestSupport",
            ]
        ),
        .testTarget(
            name: "FieldGuidePipelineTests",
            dependencies: ["FieldGuidePipeline", "FieldGuide", "FieldGuideArtifact", "FieldGuideCore", "TestSupport"]
        ),
        .testTarget(
            name: "FieldGuideBirdsArtifactTests",
            dependencies: ["FieldGuide", "FieldGuideIndex", "FieldGuideBirds", "FieldGuideArtifact", "FieldGuideCSV", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
