import Foundation

/// The one way names are folded for case- and diacritic-insensitive lookups.
///
/// Writers store folded keys; readers fold queries the same way, so `"cess"`, `"CESS"` and
/// `"Cèss"` all find `CESSNA`.
///
/// ```swift
/// NameFolding.fold("Cèssna ") == "CESSNA "
/// ```
public enum NameFolding {
    public static func fold(_ text: String) -> String {
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        if ascii { return text.uppercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).uppercased()
    }
}
