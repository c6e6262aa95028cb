import FieldGuideArtifact
import Foundation

/// What a capture (the image recognizer's ICAO type designator, manufacturer and model) resolves
/// to: the type designator and the ACFTREF models ranked for it.
public struct CaptureMatch: Sendable, Hashable, Codable {
    /// The designator as given, trimmed and upper-cased (empty when none was given).
    public let designator: String
    /// The type, when the index has the designator.
    public let type: TypeDesignatorInfo?
    /// The nearest designators the index has, when it does not have this one.
    public let closestDesignators: [String]
    /// ACFTREF models, best first.
    public let candidates: [ModelCandidate]

    /// The best candidate.
    public var best: ModelCandidate? { candidates.first }
}

/// One ACFTREF model a capture may be, with why.
public struct ModelCandidate: Sendable, Hashable, Codable {
    public let code: String
    public let manufacturer: String
    public let model: String
    /// The ranking score: the text score, plus the crosswalk's and the type description's word.
    public let score: Double
    /// How well the capture's manufacturer and model text matches (0 to 1, as `search`).
    public let textScore: Double
    /// The model's designator by the crosswalk and its registrations, when it has one.
    public let crosswalkDesignator: String?
    public let crosswalkRegistrations: Int?
    public let crosswalkModelRegistrations: Int?
    /// Each part of the score in words.
    public let reasons: [String]
}

extension AircraftIndex {
    /// Ranks the ACFTREF models a capture may be: its manufacturer and model text searched among
    /// the models (and the model text alone), the models the crosswalk gives its designator,
    /// each scored by its text, by the crosswalk (registrations of this designator, +0.3 × their
    /// share; another designator, −0.15 × its share, unless the type's name does not name the
    /// capture's manufacturer: then the designator is likely the recognizer's slip) and by the
    /// type description (class, engine count and engine type against ACFTREF's codes, ±0.05 each).
    ///
    /// ```swift
    /// let match = index.match(designator: "C182", manufacturer: "Cessna", model: "182P")
    /// match.type?.name            // "CESSNA 182 Skylane"
    /// match.best?.model           // "182P"
    /// ```
    public func match(designator: String?, manufacturer: String?, model: String?, limit: Int = 5) -> CaptureMatch {
        let code = AircraftBundle.trimmedASCII(designator ?? "", uppercase: true)
        let designatorText = String(decoding: code, as: UTF8.self)
        let type = designatorText.isEmpty ? nil : self.type(designator: designatorText)
        let text = [manufacturer ?? "", model ?? ""].joined(separator: " ")

        // Candidates: (text score, reasons) per model row.
        var scored: [Int: (text: Double, reasons: [String])] = [:]
        func consider(_ results: [AircraftSearchResult], scale: Double) {
            for result in results {
                guard let code = result.code, let row = self.model(code: code)?.row else { continue }
                let score = (result.score * scale * 1000).rounded() / 1000
                if score > scored[row]?.text ?? -1 { scored[row] = (score, [Self.describe(result.matches, score: score)]) }
            }
        }
        consider((try? search(text, limit: 20, kinds: [.model])) ?? [], scale: 1)
        if let model, !model.isEmpty { consider((try? search(model, limit: 20, kinds: [.model])) ?? [], scale: 0.9) }
        if let type {
            let query = try? SearchQuery(text)
            for entry in type.models where scored[entry.model.row] == nil {
                let result = query.flatMap { query in
                    let scoring = SearchScoring(index: self, query: query)
                    return scoring.evaluate(.init(kind: .model, row: entry.model.row)).map(scoring.result)
                }
                scored[entry.model.row] = (result?.score ?? 0, result.map { [Self.describe($0.matches, score: $0.score)] } ?? ["text: no word matches"])
            }
        }
        let description = type.map { ICAODescription($0.description) }
        let trusted = type.map { Self.agrees($0, manufacturer: manufacturer ?? "") } ?? false
        var candidates = scored.map { row, value in
            candidate(IndexModel(index: self, row: row), text: value.text, reasons: value.reasons, designator: type, trusted: trusted,
                      description: description)
        }
        candidates.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.textScore != b.textScore { return a.textScore > b.textScore }
            return a.code.utf8.lexicographicallyPrecedes(b.code.utf8)
        }
        return CaptureMatch(designator: designatorText, type: type?.info,
                            closestDesignators: type == nil && !designatorText.isEmpty ? closestDesignators(to: designatorText) : [],
                            candidates: Array(candidates.prefix(max(0, limit))))
    }

    /// Whether the type's name starts with the manufacturer's first word (`CESSNA 172 Skyhawk`
    /// for `Cessna`): a designator that does not is likely the recognizer's slip, and its
    /// crosswalk counts only for the models it names, never against the others. A type with no
    /// name, or a capture with no manufacturer, is trusted.
    static func agrees(_ type: TypeDesignator, manufacturer: String) -> Bool {
        let maker = SearchText.Tokens(manufacturer), name = SearchText.Tokens(type.name)
        guard let first = maker.atoms.first, !name.atoms.isEmpty else { return true }
        return name.atoms.contains { name[$0] == maker[first] }
    }

    private func candidate(_ model: IndexModel, text: Double, reasons: [String], designator: TypeDesignator?, trusted: Bool,
                           description: ICAODescription?) -> ModelCandidate {
        var score = text, reasons = reasons
        let crosswalk = model.designator
        if let crosswalk, crosswalk.modelRegistrations > 0 {
            let share = Double(crosswalk.registrations) / Double(crosswalk.modelRegistrations)
            let counts = "\(crosswalk.registrations) of \(crosswalk.modelRegistrations) registrations"
            if let designator, crosswalk.type.row == designator.row {
                score += 0.3 * share
                reasons.append("crosswalk: \(crosswalk.type.designator) for \(counts)")
            } else if designator != nil && trusted {
                score -= 0.15 * share
                reasons.append("crosswalk: \(crosswalk.type.designator), not \(designator!.designator), for \(counts)")
            }
        }
        if let description {
            let agreement = description.agreement(with: model)
            if agreement != 0 {
                score += 0.05 * Double(agreement)
                reasons.append("type \(designator!.description) \(agreement > 0 ? "agrees" : "disagrees") with ACFTREF (\(agreement > 0 ? "+" : "")\(agreement))")
            }
        }
        return ModelCandidate(code: model.code, manufacturer: model.manufacturer, model: model.model, score: (score * 1000).rounded() / 1000,
                              textScore: text, crosswalkDesignator: crosswalk?.type.designator,
                              crosswalkRegistrations: crosswalk?.registrations, crosswalkModelRegistrations: crosswalk?.modelRegistrations,
                              reasons: reasons)
    }

    /// "text 0.917: CESSNA, 550" (a word that matched otherwise than exactly: "BOENG ~ BOEING (typo)").
    static func describe(_ matches: [AircraftSearchMatch], score: Double) -> String {
        let words = matches.map { $0.how == .exact ? $0.word : "\($0.word) ~ \($0.found) (\($0.how.rawValue))" }
        return "text " + String(format: "%.3f", score) + ": " + (words.isEmpty ? "no word matches" : words.joined(separator: ", "))
    }
}
