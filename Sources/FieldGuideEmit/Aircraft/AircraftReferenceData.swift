import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA

extension AircraftArtifactBuilder {
    /// Models and engines in code order with their packed keys, and the models' manufacturers
    /// with their folded names: the reference data as the builder takes it, prepared apart (on
    /// another thread while registrations are read).
    ///
    /// Text is kept as bytes, every field of a table in one buffer, ready to be interned in
    /// batches. It comes from `AircraftModel`s and `EngineModel`s, or straight from the
    /// hand-off's `models.csv` and `engines.csv` records, which never become Swift strings: the
    /// two give the same data, and the same artifact.
    ///
    /// ```swift
    /// let reference = try AircraftArtifactBuilder.ReferenceData(modelsFile: "output/stage/faa/models.csv",
    ///                                                           enginesFile: "output/stage/faa/engines.csv")
    /// builder.add(reference)
    /// ```
    public struct ReferenceData: Sendable {
        /// Each model's `ModelText` fields, model after model.
        let modelText: TextBatch
        let modelNumbers: [ModelNumbers]
        /// Each engine's `EngineText` fields, engine after engine.
        let engineText: TextBatch
        let engineNumbers: [EngineNumbers]
        let modelKeys: [UInt64]
        let engineKeys: [UInt64]
        /// Every distinct manufacturer name (byte for byte) in order of first appearance, each
        /// followed by its folded name.
        let manufacturers: TextBatch
        /// `manufacturers` index (a pair of strings each) of every model's manufacturer.
        let manufacturerOfModel: [Int]

        var modelCount: Int { modelNumbers.count }
        var engineCount: Int { engineNumbers.count }

        /// The text fields of a model, in the order `modelText` holds them.
        enum ModelText: Int, CaseIterable {
            case code, manufacturer, model, typeCertificateDataSheet, typeCertificateHolder
            case aircraftType, engineType, category, builderCertification, weightClass
        }

        /// The text fields of an engine, in the order `engineText` holds them.
        enum EngineText: Int, CaseIterable {
            case code, manufacturer, model, engineType
        }

        /// A model's numbers, each kept as the tables take it: nil for a blank or negative one,
        /// else clamped to `UInt32` (every table clamps further). 16 bytes a model where three
        /// `Int?` took 48: the manufacturer index holds them all while it builds.
        struct ModelNumbers {
            private let values: (UInt32, UInt32, UInt32)
            private let present: UInt8

            init(engineCount: Int?, seatCount: Int?, cruiseSpeed: Int?) {
                let (e, s, c) = (StoredNumber(engineCount), StoredNumber(seatCount), StoredNumber(cruiseSpeed))
                values = (e.value, s.value, c.value)
                present = (e.present ? 1 : 0) | (s.present ? 2 : 0) | (c.present ? 4 : 0)
            }

            var engineCount: Int? { present & 1 != 0 ? Int(values.0) : nil }
            var seatCount: Int? { present & 2 != 0 ? Int(values.1) : nil }
            var cruiseSpeed: Int? { present & 4 != 0 ? Int(values.2) : nil }
        }

        /// An engine's numbers, kept as `ModelNumbers` keeps a model's.
        struct EngineNumbers {
            private let values: (UInt32, UInt32)
            private let present: UInt8

            init(horsepower: Int?, thrust: Int?) {
                let (h, t) = (StoredNumber(horsepower), StoredNumber(thrust))
                values = (h.value, t.value)
                present = (h.present ? 1 : 0) | (t.present ? 2 : 0)
            }

            var horsepower: Int? { present & 1 != 0 ? Int(values.0) : nil }
            var thrust: Int? { present & 2 != 0 ? Int(values.1) : nil }
        }

        /// A number as the reference tables keep it: absent when blank or negative (no table
        /// takes a negative one), else clamped to `UInt32`.
        private struct StoredNumber {
            let value: UInt32
            let present: Bool

            init(_ number: Int?) {
                if let number, number >= 0 {
                    (value, present) = (UInt32(clamping: number), true)
                } else {
                    (value, present) = (0, false)
                }
            }
        }

        /// The reference data of typed records (the tests' oracle for `init(modelsFile:enginesFile:)`).
        package init(models: [AircraftModel], engines: [EngineModel]) {
            var modelText = TextBatch(), engineText = TextBatch()
            for m in models {
                for text in [m.code, m.manufacturer, m.model, m.typeCertificateDataSheet, m.typeCertificateHolder,
                             m.aircraftType?.raw ?? "", m.engineType?.raw ?? "", m.category?.raw ?? "",
                             m.builderCertification?.raw ?? "", m.weightClass?.raw ?? ""] {
                    modelText.append(text)
                }
            }
            for e in engines {
                for text in [e.code, e.manufacturer, e.model, e.engineType?.raw ?? ""] { engineText.append(text) }
            }
            self.init(modelText: modelText,
                      modelNumbers: models.map { ModelNumbers(engineCount: $0.engineCount, seatCount: $0.seatCount, cruiseSpeed: $0.cruiseSpeedMPH) },
                      engineText: engineText,
                      engineNumbers: engines.map { EngineNumbers(horsepower: $0.horsepower, thrust: $0.thrustPounds) })
        }

        /// Reads the hand-off's `models.csv` and `engines.csv` (as `NormalizedFAA.readModels`
        /// and `readEngines` do, with the same errors), field bytes straight into the builder's form.
        public init(modelsFile: String, enginesFile: String) throws {
            typealias M = NormalizedFAA.ModelField
            typealias E = NormalizedFAA.EngineField
            let modelFields: [M] = [.code, .manufacturer, .model, .typeCertificateDataSheet, .typeCertificateHolder,
                                    .aircraftType, .engineType, .category, .builderCertification, .weightClass]
            let modelsName = Self.fileName(modelsFile), enginesName = Self.fileName(enginesFile)
            var modelText = TextBatch(reservingBytes: try NormalizedFAA.referenceFileSize(of: modelsFile)), modelNumbers: [ModelNumbers] = []
            try NormalizedFAA.readModelRecords(modelsFile) { record in
                try record.withUnsafeFields { fields in
                    for field in modelFields { try modelText.append(fields[field.rawValue], file: modelsName, line: record.line) }
                    modelNumbers.append(ModelNumbers(engineCount: Self.number(fields[M.engineCount.rawValue]),
                                                     seatCount: Self.number(fields[M.seatCount.rawValue]),
                                                     cruiseSpeed: Self.number(fields[M.cruiseSpeedMPH.rawValue])))
                }
            }
            let engineFields: [E] = [.code, .manufacturer, .model, .engineType]
            var engineText = TextBatch(reservingBytes: try NormalizedFAA.referenceFileSize(of: enginesFile)), engineNumbers: [EngineNumbers] = []
            try NormalizedFAA.readEngineRecords(enginesFile) { record in
                try record.withUnsafeFields { fields in
                    for field in engineFields { try engineText.append(fields[field.rawValue], file: enginesName, line: record.line) }
                    engineNumbers.append(EngineNumbers(horsepower: Self.number(fields[E.horsepower.rawValue]),
                                                       thrust: Self.number(fields[E.thrustPounds.rawValue])))
                }
            }
            self.init(modelText: modelText, modelNumbers: modelNumbers, engineText: engineText, engineNumbers: engineNumbers)
        }

        private init(modelText: TextBatch, modelNumbers: [ModelNumbers], engineText: TextBatch, engineNumbers: [EngineNumbers]) {
            let modelFields = ModelText.allCases.count, engineFields = EngineText.allCases.count
            let (modelOrder, modelKeys) = Self.codeOrder(modelText, fieldsPerRow: modelFields)
            let (engineOrder, engineKeys) = Self.codeOrder(engineText, fieldsPerRow: engineFields)
            // Kept as read when the rows are in code order, as the hand-off writes them: read from
            // a file, the text's buffer was sized for it up front (`TextBatch(reservingBytes:)`),
            // and a copy at exact size would only add its own bytes to the peak.
            let models = modelOrder.map { modelText.reordered($0, fieldsPerRow: modelFields) } ?? modelText
            self.modelText = models
            self.modelNumbers = modelOrder.map { $0.map { modelNumbers[$0] } } ?? modelNumbers
            self.engineText = engineOrder.map { engineText.reordered($0, fieldsPerRow: engineFields) } ?? engineText
            self.engineNumbers = engineOrder.map { $0.map { engineNumbers[$0] } } ?? engineNumbers
            self.modelKeys = modelKeys
            self.engineKeys = engineKeys
            let modelCount = modelKeys.count

            // Manufacturers told apart by their bytes: a pool hands out ids in order of first
            // appearance (0 is the empty name, whenever it comes).
            var names = StringPoolBuilder(expectedStrings: modelCount)
            var indexOfName: [Int] = [-1]
            var manufacturers = TextBatch()
            var manufacturerOfModel: [Int] = []
            manufacturerOfModel.reserveCapacity(modelCount)
            for row in 0..<modelCount {
                models.withString(row * modelFields + ModelText.manufacturer.rawValue) { name in
                    let id = Int(names.intern(name))
                    if id == indexOfName.count { indexOfName.append(-1) }
                    if indexOfName[id] < 0 {
                        indexOfName[id] = manufacturers.count / 2
                        manufacturers.append(name)
                        manufacturers.append(NameFolding.fold(String(decoding: name, as: UTF8.self)))
                    }
                    manufacturerOfModel.append(indexOfName[id])
                }
            }
            self.manufacturers = manufacturers
            self.manufacturerOfModel = manufacturerOfModel
        }

        /// The row order that sorts the rows by their first field (the code) in byte order,
        /// equal codes in input order, nil when they are in that order already (as the hand-off
        /// writes them); and the packed codes in that order. Packed 8-byte prefixes are compared
        /// first, whole codes only on a tie.
        private static func codeOrder(_ text: TextBatch, fieldsPerRow: Int) -> (order: [Int]?, keys: [UInt64]) {
            let rows = text.count / fieldsPerRow
            let packed = (0..<rows).map { row in text.withString(row * fieldsPerRow) { PackedKey.pack($0) } }
            if zip(packed, packed.dropFirst()).allSatisfy({ $0 < $1 }) { return (nil, packed) }
            let order = (0..<rows).sorted { a, b in
                if packed[a] != packed[b] { return packed[a] < packed[b] }
                let byBytes = text.withString(a * fieldsPerRow) { x in text.withString(b * fieldsPerRow) { y in compare(x, y) } }
                return byBytes != 0 ? byBytes < 0 : a < b
            }
            return (order, order.map { packed[$0] })
        }

        /// The last component of `path`, as the hand-off readers name a file.
        private static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

        /// A decimal field as `Int(_:)` reads it (nil when empty or not a number).
        private static func number(_ bytes: UnsafeRawBufferPointer) -> Int? {
            if bytes.isEmpty { return nil }
            if bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            }
            return Int(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Strings gathered into one buffer, then interned in batches.
    ///
    /// An end takes 4 bytes (a million strings: 4 MB, where `Int`s took 8), so a batch holds at
    /// most `maximumBytes` of text; one read from a file reserves the file's size before the
    /// first string, and refuses text past the file's bound as it comes.
    struct TextBatch: Sendable {
        /// The most text a batch holds: its ends are `UInt32`s.
        static let maximumBytes = Int(UInt32.max)
        /// The most text read from one file (`NormalizedFAA.maximumReferenceFileBytes`).
        static let maximumFileBytes = NormalizedFAA.maximumReferenceFileBytes

        private var bytes: [UInt8] = []
        /// `ends[i]` is one past the last byte of string `i`.
        private var ends: [UInt32] = []

        init() {}

        /// An empty batch with room for `count` bytes of text (a file's size: no field read from
        /// it holds more). The room is reserved, not touched: pages never written stay out of
        /// memory, and the text is never copied to a buffer of its exact size beside it.
        init(reservingBytes count: Int) {
            bytes.reserveCapacity(min(count, Self.maximumFileBytes))
        }

        var count: Int { ends.count }

        mutating func append(_ text: String) {
            precondition(bytes.count + text.utf8.count <= Self.maximumBytes, "a text batch past 4 GiB")
            bytes.append(contentsOf: text.utf8)
            ends.append(UInt32(bytes.count))
        }

        mutating func append(_ text: UnsafeRawBufferPointer) {
            precondition(bytes.count + text.count <= Self.maximumBytes, "a text batch past 4 GiB")
            bytes.append(contentsOf: text)
            ends.append(UInt32(bytes.count))
        }

        /// `append(_:)` for a field read from `file` at `line`: past `maximumFileBytes` of text
        /// (a file that grew while it was read), `.tooLarge` at that line.
        mutating func append(_ text: UnsafeRawBufferPointer, file: String, line: Int) throws(LocatedError) {
            guard bytes.count + text.count <= Self.maximumFileBytes else {
                throw LocatedError(.tooLarge, file: file, line: line, expected: "at most \(Self.maximumFileBytes) bytes of text",
                                   found: "\(bytes.count + text.count) bytes", message: "a reference file too large for the hand-off")
            }
            append(text)
        }

        /// Calls `body` with the bytes of string `i`.
        func withString<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            let start = i == 0 ? 0 : Int(ends[i - 1])
            return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<Int(ends[i])])) }
        }

        /// The strings in rows of `fieldsPerRow`, the rows in `order` (indexes of the rows here).
        func reordered(_ order: [Int], fieldsPerRow: Int) -> TextBatch {
            var result = TextBatch()
            result.bytes.reserveCapacity(bytes.count)
            result.ends.reserveCapacity(ends.count)
            for row in order {
                for i in row * fieldsPerRow..<(row + 1) * fieldsPerRow { withString(i) { result.append($0) } }
            }
            return result
        }

        /// The ids of the strings, in order.
        func intern(into pool: inout StringPoolBuilder) -> [UInt32] {
            let batch = 32
            return [UInt32](unsafeUninitializedCapacity: ends.count) { ids, initialized in
                bytes.withUnsafeBytes { bytes in
                    withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: batch) { strings in
                        var first = 0
                        while first < ends.count {
                            let count = min(batch, ends.count - first)
                            for i in 0..<count {
                                let end = Int(ends[first + i]), start = first + i == 0 ? 0 : Int(ends[first + i - 1])
                                strings[i] = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                            }
                            pool.intern(UnsafeBufferPointer(rebasing: strings[0..<count]),
                                        into: UnsafeMutableBufferPointer(rebasing: ids[first..<first + count]))
                            first += count
                        }
                    }
                }
                initialized = ends.count
            }
        }
    }
}
