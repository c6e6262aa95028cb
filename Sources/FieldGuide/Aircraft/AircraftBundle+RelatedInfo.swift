import FieldGuideArtifact

// A model's and an engine's fields, decoded by the bundle from their row.
//
// Why here and not in `ModelRecord.info` alone: `RegistrationRecord.info` decodes its model and
// engine, and going through a `ModelRecord` and an `EngineRecord` made each hold the bundle for
// the while: an atomic increment and decrement of its count each, four a registration, on
// the `.info` path where every such pair was a few percent. A bundle method needs no hold on
// itself. The records' `info` is this too.
extension AircraftBundle {
    private typealias M = S.ModelColumn
    private typealias E = S.EngineColumn

    /// Model row `row` decoded (a row outside the table reads as empty: `RowTable.value`).
    ///
    /// The codes and numbers (from the row) are decoded before the strings (from the pool), so
    /// a caller that requested the strings' bytes (`RegistrationRecord.info`) gives them time.
    func modelInfo(_ row: Int) -> ModelInfo {
        if let text = textRecords { return modelInfo(row, record: text.models.record(row)) }
        return modelInfo(row, text: ModelTextIDs(self, row: row))
    }

    /// Model row `row` decoded, its text from `text` (the ids `RegistrationRecord.info` read
    /// from the row to request their bytes).
    func modelInfo(_ row: Int, text: ModelTextIDs) -> ModelInfo {
        let codes = ModelCodes(self, row: row)
        return modelInfo(row, codes, (string(text.code), string(text.manufacturer), string(text.model),
                                      string(text.typeCertificateDataSheet), string(text.typeCertificateHolder)))
    }

    /// Model row `row` decoded, its text from its `MTXR` record (format 1.3), a field the
    /// record kept out from the pool.
    func modelInfo(_ row: Int, record: TextRecord) -> ModelInfo {
        let codes = ModelCodes(self, row: row)
        var f = record.fields()
        let m = models
        let codeText = text(&f, orPool: m.value(row, M.code)), manufacturer = text(&f, orPool: m.value(row, M.manufacturer))
        let model = text(&f, orPool: m.value(row, M.model)), dataSheet = text(&f, orPool: m.value(row, M.typeCertificateDataSheet))
        return modelInfo(row, codes, (codeText, manufacturer, model, dataSheet, text(&f, orPool: m.value(row, M.typeCertificateHolder))))
    }

    /// A model's codes, decoded from its row before its text: a caller that requested the
    /// text's bytes gives them time.
    private struct ModelCodes {
        let aircraftType, engineType, category, builderCertification, weightClass: CodeValue?

        @inline(__always)
        init(_ bundle: AircraftBundle, row: Int) {
            let m = bundle.models
            aircraftType = bundle.code(.aircraftType, m.value(row, M.aircraftType))
            engineType = bundle.code(.engineType, m.value(row, M.engineType))
            category = bundle.code(.aircraftCategory, m.value(row, M.category))
            builderCertification = bundle.code(.builderCertification, m.value(row, M.builderCertification))
            weightClass = bundle.code(.weightClass, m.value(row, M.weightClass))
        }
    }

    /// Model row `row` with its codes and its code, manufacturer, model, type certificate data
    /// sheet and holder (in `ModelTextField` order).
    @inline(__always)
    private func modelInfo(_ row: Int, _ codes: ModelCodes, _ text: (String, String, String, String, String)) -> ModelInfo {
        let m = models
        return ModelInfo(code: text.0, manufacturer: text.1, model: text.2, aircraftType: codes.aircraftType, engineType: codes.engineType,
                         category: codes.category, builderCertification: codes.builderCertification,
                         engineCount: m.number(row, M.engineCount), seatCount: m.number(row, M.seatCount),
                         weightClass: codes.weightClass, cruiseSpeedMPH: m.number(row, M.cruiseSpeed),
                         typeCertificateDataSheet: text.3, typeCertificateHolder: text.4)
    }

    /// Engine row `row` decoded (a row outside the table reads as empty).
    func engineInfo(_ row: Int) -> EngineInfo {
        if let text = textRecords { return engineInfo(row, record: text.engines.record(row)) }
        return engineInfo(row, text: EngineTextIDs(self, row: row))
    }

    /// Engine row `row` decoded, its text from `text` (as `modelInfo(_:text:)`).
    func engineInfo(_ row: Int, text: EngineTextIDs) -> EngineInfo {
        let engineType = code(.engineType, engines.value(row, E.engineType))
        return engineInfo(row, engineType, (string(text.code), string(text.manufacturer), string(text.model)))
    }

    /// Engine row `row` decoded, its text from its `ETXR` record (as `modelInfo(_:record:)`).
    func engineInfo(_ row: Int, record: TextRecord) -> EngineInfo {
        let engineType = code(.engineType, engines.value(row, E.engineType))
        var f = record.fields()
        let e = engines
        let codeText = text(&f, orPool: e.value(row, E.code)), manufacturer = text(&f, orPool: e.value(row, E.manufacturer))
        return engineInfo(row, engineType, (codeText, manufacturer, text(&f, orPool: e.value(row, E.model))))
    }

    /// The next field of a text record, or string `id` of the pool when the record kept it out.
    @inline(__always)
    func text(_ fields: inout TextRecord.Fields, orPool id: @autoclosure () -> UInt32) -> String {
        fields.string() ?? string(id())
    }

    @inline(__always)
    private func engineInfo(_ row: Int, _ engineType: CodeValue?, _ text: (String, String, String)) -> EngineInfo {
        let e = engines
        return EngineInfo(code: text.0, manufacturer: text.1, model: text.2, engineType: engineType,
                          horsepower: e.number(row, E.horsepower), thrustPounds: e.number(row, E.thrust))
    }
}
