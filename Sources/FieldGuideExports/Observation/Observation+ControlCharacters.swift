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
    /// A field is written back only when it held one: nearly every observation holds none (a
    /// GPX track gives hundreds of thousands), and each field costs one byte scan.
    ///
    /// ```swift
    /// var o = Observation(file: "MyEBirdData.csv", line: 2, format: .ebird, record: .checklistRow, kind: .bird, subject: "Grey\u{1B}[2JHeron")
    /// o.replaceControlCharacters()   // [subject "Grey\u{FFFD}[2JHeron", U+001B]
    /// ```
    mutating func replaceControlCharacters() -> [ReplacedControl] {
        var found: [ReplacedControl] = []
        // Each field is scanned before any `inout` access: passing every field `inout` (and
        // `keywords[i]` with it) cost more than the scan. Callgrind, `ingest-exports` on a 2.5 MB
        // GPX: 704.1M instructions without the check, 719.5M with this, 722.1M all `inout`;
        // a second list of the fields as a prefilter saved 2.4M more, not worth the copy.
        func replaced(_ field: String, _ text: String) -> String? {
            guard let control = FileText.firstControlCharacter(in: text) else { return nil }
            let kept = FileText.replacingControlCharacters(in: text).text
            found.append(ReplacedControl(field: field, value: kept, control: control))
            return kept
        }
        func replace(_ field: String, _ text: inout String?) {
            if let value = text, let kept = replaced(field, value) { text = kept }
        }
        if let kept = replaced("subject", subject) { subject = kept }
        replace("scientific_name", &scientificName); replace("family", &family)
        replace("place", &place); replace("place_id", &placeID); replace("region", &region); replace("checklist_id", &checklistID)
        for i in keywords.indices { if let kept = replaced("keywords", keywords[i]) { keywords[i] = kept } }
        replace("registration", &registration); replace("icao_type", &icaoType); replace("manufacturer", &manufacturer)
        replace("model", &model); replace("title", &title); replace("notes", &notes); replace("audio_file", &audioFile)
        return found
    }
}
