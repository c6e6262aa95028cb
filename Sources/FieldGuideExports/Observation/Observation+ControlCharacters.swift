import FieldGuideCSV

extension Observation {
    /// A text field that held a control character, as `replaceControlCharacters` found it.
    struct ReplacedControl: Equatable {
        /// The field's column in `observations.csv` (`subject`, `notes`, `keywords`).
        var field: String
        /// The field as kept, U+FFFD in place of each control character.
        var value: String
        /// The first control character it held.
        var control: Unicode.Scalar
    }

    /// Replaces every control character (`FileText.isControlCharacter`: C0 but tab and line
    /// breaks, or DEL) in the text fields with U+FFFD and returns the fields that held one.
    /// XML cannot carry them, but a CSV export or a binary property list can, and an escape
    /// sequence in a note would reach every terminal and app that shows it.
    ///
    /// One byte scan over the fields first: nearly every observation holds none, and a GPX
    /// track gives hundreds of thousands of them.
    ///
    /// ```swift
    /// var o = Observation(file: "MyEBirdData.csv", line: 2, format: .ebird, record: .checklistRow, kind: .bird, subject: "Grey\u{1B}[2JHeron")
    /// o.replaceControlCharacters()   // [subject "Grey\u{FFFD}[2JHeron", U+001B]
    /// ```
    mutating func replaceControlCharacters() -> [ReplacedControl] {
        guard mayHoldControlCharacter else { return [] }
        var found: [ReplacedControl] = []
        func replace(_ field: String, _ text: inout String) {
            let (kept, control) = FileText.replacingControlCharacters(in: text)
            guard let control else { return }
            text = kept
            found.append(ReplacedControl(field: field, value: kept, control: control))
        }
        func replace(_ field: String, _ text: inout String?) {
            guard var value = text else { return }
            replace(field, &value)
            text = value
        }
        replace("subject", &subject); replace("scientific_name", &scientificName); replace("family", &family)
        replace("place", &place); replace("place_id", &placeID); replace("region", &region); replace("checklist_id", &checklistID)
        for i in keywords.indices { replace("keywords", &keywords[i]) }
        replace("registration", &registration); replace("icao_type", &icaoType); replace("manufacturer", &manufacturer)
        replace("model", &model); replace("title", &title); replace("notes", &notes); replace("audio_file", &audioFile)
        return found
    }

    /// Whether any text field has a byte of a control character.
    private var mayHoldControlCharacter: Bool {
        func has(_ text: String?) -> Bool { text.map { FileText.firstControlCharacter(in: $0) != nil } ?? false }
        return has(subject) || has(scientificName) || has(family) || has(place) || has(placeID) || has(region) || has(checklistID)
            || keywords.contains(where: has) || has(registration) || has(icaoType) || has(manufacturer) || has(model)
            || has(title) || has(notes) || has(audioFile)
    }
}
