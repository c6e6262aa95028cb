/// Column layouts of the two files that tell an N-number's status beyond MASTER: DEREG.txt
/// (deregistered aircraft) and RESERVED.txt (reserved N-numbers), from the FAA's record layout
/// document (ardata, 5/8/2025), with its header names as the files write them.
///
/// Both are optional in a download: an older export, or a directory without them, still builds.
/// Like MASTER, every line ends with a comma, fields are space-padded, and DEREG's header writes
/// `" KIT MODEL"` with a leading space.
///
/// Two places where the document and the files differ are taken the lenient way: DEREG's
/// STATUS-CODE is given one position (46) while its code list runs to `29`, so it is read two
/// wide; KIT MODEL is read 20 wide as in MASTER (the document gives 691-709).
///
/// ```swift
/// FAALayout.columns(.deregistered).count   // 38
/// FAALayout.columns(.reserved).map(\.name) // ["N-NUMBER", "REGISTRANT", …, "PURGE DATE"]
/// ```
public enum FAAStatusLayout {
    /// DEREG.txt: one row per cancellation, so an N-number may have several (one per aircraft
    /// that carried it); N-number sequence.
    public static let deregistered: [FAAColumn] = [
        .init(name: "N-NUMBER", width: 5), .init(name: "SERIAL-NUMBER", width: 30), .init(name: "MFR-MDL-CODE", width: 7),
        .init(name: "STATUS-CODE", width: 2), .init(name: "NAME", width: 50), .init(name: "STREET-MAIL", width: 33),
        .init(name: "STREET2-MAIL", width: 33), .init(name: "CITY-MAIL", width: 18), .init(name: "STATE-ABBREV-MAIL", width: 2),
        .init(name: "ZIP-CODE-MAIL", width: 10), .init(name: "ENG-MFR-MDL", width: 5), .init(name: "YEAR-MFR", width: 4),
        .init(name: "CERTIFICATION", width: 10), .init(name: "REGION", width: 1), .init(name: "COUNTY-MAIL", width: 3),
        .init(name: "COUNTRY-MAIL", width: 2), .init(name: "AIR-WORTH-DATE", width: 8), .init(name: "CANCEL-DATE", width: 8),
        .init(name: "MODE-S-CODE", width: 8), .init(name: "INDICATOR-GROUP", width: 1), .init(name: "EXP-COUNTRY", width: 18),
        .init(name: "LAST-ACT-DATE", width: 8), .init(name: "CERT-ISSUE-DATE", width: 8),
        .init(name: "STREET-PHYSICAL", width: 33), .init(name: "STREET2-PHYSICAL", width: 33),
        .init(name: "CITY-PHYSICAL", width: 18), .init(name: "STATE-ABBREV-PHYSICAL", width: 2),
        .init(name: "ZIP-CODE-PHYSICAL", width: 10), .init(name: "COUNTY-PHYSICAL", width: 3),
        .init(name: "COUNTRY-PHYSICAL", width: 2), .init(name: "OTHER-NAMES(1)", width: 50),
        .init(name: "OTHER-NAMES(2)", width: 50), .init(name: "OTHER-NAMES(3)", width: 50),
        .init(name: "OTHER-NAMES(4)", width: 50), .init(name: "OTHER-NAMES(5)", width: 50),
        .init(name: "KIT MFR", width: 30), .init(name: "KIT MODEL", width: 20), .init(name: "MODE S CODE HEX", width: 10),
    ]

    /// RESERVED.txt: one row per reserved N-number, N-number sequence.
    public static let reserved: [FAAColumn] = [
        .init(name: "N-NUMBER", width: 5), .init(name: "REGISTRANT", width: 50), .init(name: "STREET", width: 33),
        .init(name: "STREET2", width: 33), .init(name: "CITY", width: 18), .init(name: "STATE", width: 2),
        .init(name: "ZIP CODE", width: 10), .init(name: "RSV DATE", width: 8), .init(name: "TR", width: 2),
        .init(name: "EXP DATE", width: 8), .init(name: "N-NUM-CHG", width: 5), .init(name: "PURGE DATE", width: 8),
    ]
}

extension FAACodeTables {
    /// RESERVED's TR (Type Reservation).
    public static let reservationType = FAACodeTable(id: "reservation-type", field: "TR (Type Reservation)", [
        ("AA", "Reserved - no fee"),
        ("A", "Fee paid, notice for expiration sent"),
        ("HD", "2 year hold for canceled N-Numbers"),
        ("FN", "Fee paid, notice for expiration sent"),
        ("FP", "Fee paid"),
        ("MF", "Reserved to manufacturer - no fee, no expiration date"),
        ("MT", "Reserved to manufacturer - temporary number"),
        ("NC", "N-Number change is in process"),
        ("NN", "N-Number change is in process, expiration notice sent"),
        ("CN", "N-Number change, expiration notice sent"),
        ("CE", "N-Number change expired"),
    ])
}
