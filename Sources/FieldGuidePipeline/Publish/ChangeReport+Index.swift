import FieldGuide
import FieldGuideArtifact
import Foundation

extension ChangeReport {
    /// Two manufacturer indexes compared: ACFTREF models by code (the same section as the
    /// aircraft artifact's, so a build holding both lists it once), ICAO type designators, and
    /// models whose crosswalk designator changed.
    ///
    /// ```swift
    /// let report = ChangeReport.index(old: try AircraftIndex(path: "output/previous/aircraft-index.fgb"),
    ///                                 new: try AircraftIndex(path: "output/current/aircraft-index.fgb"))
    /// ```
    public static func index(old: AircraftIndex, new: AircraftIndex) -> ChangeReport {
        var models = Section(title: "Aircraft models (ACFTREF)", before: old.modelCount, after: new.modelCount)
        mergeJoin(old.modelCodes, new.modelCodes,
                  removed: { models.removed.append(old.modelCodes.string($0)) },
                  added: { models.added.append(new.modelCodes.string($0)) },
                  both: { o, n in
                      guard modelRowsDiffer(old, o, new, n) else { return }
                      let a = IndexModel(index: old, row: o).info, b = IndexModel(index: new, row: n).info
                      let fields = differingFields(a, b)
                      if !fields.isEmpty { models.changed.append(Changed(key: b.code, name: "\(b.manufacturer) \(b.model)", fields: fields)) }
                  })

        var types = Section(title: "ICAO type designators", before: old.typeCount, after: new.typeCount)
        mergeJoin(old.typeDesignators, new.typeDesignators,
                  removed: { types.removed.append(old.typeDesignators.string($0)) },
                  added: { types.added.append(new.typeDesignators.string($0)) },
                  both: { o, n in
                      let a = TypeDesignator(index: old, row: o).info, b = TypeDesignator(index: new, row: n).info
                      let fields = differingFields(a, b).filter { $0 != "describedAs" }
                      if !fields.isEmpty { types.changed.append(Changed(key: b.designator, name: b.name, fields: fields)) }
                  })

        var crosswalk = Section(title: "Crosswalk (model → designator)", before: old.crosswalkCount, after: new.crosswalkCount)
        let before = Dictionary(crosswalkByCode(old), uniquingKeysWith: { first, _ in first })
        let after = Dictionary(crosswalkByCode(new), uniquingKeysWith: { first, _ in first })
        for code in after.keys.sorted() where before[code] == nil { crosswalk.added.append("\(code) → \(after[code]!)") }
        for code in before.keys.sorted() where after[code] == nil { crosswalk.removed.append("\(code) → \(before[code]!)") }
        for code in after.keys.sorted() {
            guard let a = before[code], let b = after[code], a != b else { continue }
            crosswalk.changed.append(Changed(key: code, name: "", fields: ["designator \(a) → \(b)"]))
        }
        return ChangeReport(sections: [models, types, crosswalk])
    }

    /// (model code, designator) of every crosswalk entry.
    private static func crosswalkByCode(_ index: AircraftIndex) -> [(String, String)] {
        (0..<index.modelCount).compactMap { row in
            IndexModel(index: index, row: row).designator.map { ($0.model.code, $0.type.designator) }
        }
    }

    /// Whether two model rows differ in their text or coded fields (cheap; `info` says how).
    private static func modelRowsDiffer(_ a: AircraftIndex, _ i: Int, _ b: AircraftIndex, _ j: Int) -> Bool {
        for (x, y) in [(a.modelNames, b.modelNames), (a.modelDataSheets, b.modelDataSheets), (a.modelDataHolders, b.modelDataHolders)]
            where compare(x.bytes(i), y.bytes(j)) != 0 { return true }
        let m = Int(a.modelManufacturers.value(i, .value)), n = Int(b.modelManufacturers.value(j, .value))
        if compare(a.manufacturerNames.bytes(m), b.manufacturerNames.bytes(n)) != 0 { return true }
        return AircraftIndexSchema.ModelColumn.allCases.contains { a.modelAttributes.value(i, $0) != b.modelAttributes.value(j, $0) }
    }

    /// Walks two sorted text columns: rows only in the old, only in the new, in both.
    private static func mergeJoin(_ a: TextColumn, _ b: TextColumn, removed: (Int) -> Void, added: (Int) -> Void, both: (Int, Int) -> Void) {
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count { removed(i); i += 1; continue }
            if i == a.count { added(j); j += 1; continue }
            let order = compare(a.bytes(i), b.bytes(j))
            if order == 0 { both(i, j); i += 1; j += 1 } else if order < 0 { removed(i); i += 1 } else { added(j); j += 1 }
        }
    }
}
