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
        // ASCII text (nearly every name) is only upper-cased: done byte by byte where the bytes
        // lie, straight into the new string. Through the generic `UTF8View` check and
        // `uppercased()` it cost 2,100 instructions a name (ingest-birds folds 22,000).
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { folded in
                for (i, byte) in bytes.enumerated() { folded[i] = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
                return bytes.count
            }
        }
        switch ascii {
        case .some(.some(let folded)): return folded
        case .some(.none): break   // not ASCII
        case .none: if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.uppercased() }   // not stored contiguously
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).uppercased()
    }
}
