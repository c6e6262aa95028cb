import FieldGuideFAA

/// Editing FAA fixture lines field by field, for the fast-path equivalence tests.
enum FAALine {
    /// `line` with field `index` replaced by `value`, space-padded to its width in `layout`.
    static func replacing(_ line: String, _ index: Int, with value: String, layout: [FAAColumn]) -> String {
        var fields = line.components(separatedBy: ",")
        let width = layout[index].width
        fields[index] = value.count >= width ? value : value.padding(toLength: width, withPad: " ", startingAt: 0)
        return fields.joined(separator: ",")
    }
}
