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
    func modelInfo(_ row: Int) -> ModelInfo { modelInfo(row, text: ModelTextIDs(self, row: row)) }

    /// Model row `row` decoded, its text from `text` (the ids `RegistrationRecord.info` read
    /// from the row to request their bytes).
    func modelInfo(_ row: Int, text: ModelTextIDs) -> ModelInfo {
        let m = models
        let aircraftType = code(.aircraftType, m.value(row, M.aircraftType)), engineType = code(.engineType, m.value(row, M.engineType))
        let category = code(.aircraftCategory, m.value(row, M.category))
        let builderCertification = code(.builderCertification, m.value(row, M.builderCertification))
        let weightClass = code(.weightClass, m.value(row, M.weightClass))
        return ModelInfo(code: string(text.code), manufacturer: string(text.manufacturer),
                         model: string(text.model), aircraftType: aircraftType, engineType: engineType,
                         category: category, builderCertification: builderCertification,
                         engineCount: m.number(row, M.engineCount), seatCount: m.number(row, M.seatCount),
                         weightClass: weightClass, cruiseSpeedMPH: m.number(row, M.cruiseSpeed),
                         typeCertificateDataSheet: string(text.typeCertificateDataSheet),
                         typeCertificateHolder: string(text.typeCertificateHolder))
    }

    /// Engine row `row` decoded (a row outside the table reads as empty).
    func engineInfo(_ row: Int) -> EngineInfo { engineInfo(row, text: EngineTextIDs(self, row: row)) }

    /// Engine row `row` decoded, its text from `text` (as `modelInfo(_:text:)`).
    func engineInfo(_ row: Int, text: EngineTextIDs) -> EngineInfo {
        let e = engines
        let engineType = code(.engineType, e.value(row, E.engineType))
        return EngineInfo(code: string(text.code), manufacturer: string(text.manufacturer),
                          model: string(text.model), engineType: engineType,
                          horsepower: e.number(row, E.horsepower), thrustPounds: e.number(row, E.thrust))
    }
}
