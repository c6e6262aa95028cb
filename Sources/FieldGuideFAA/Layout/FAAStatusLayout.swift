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
    public static let deregistered = FAAColumn.layout([
        "N-NUMBER": 5, "SERIAL-NUMBER": 30, "MFR-MDL-CODE": 7, "STATUS-CODE": 2, "NAME": 50, "STREET-MAIL": 33,
        "STREET2-MAIL": 33, "CITY-MAIL": 18, "STATE-ABBREV-MAIL": 2, "ZIP-CODE-MAIL": 10, "ENG-MFR-MDL": 5,
        "YEAR-MFR": 4, "CERTIFICATION": 10, "REGION": 1, "COUNTY-MAIL": 3, "COUNTRY-MAIL": 2, "AIR-WORTH-DATE": 8,
        "CANCEL-DATE": 8, "MODE-S-CODE": 8, "INDICATOR-GROUP": 1, "EXP-COUNTRY": 18, "LAST-ACT-DATE": 8,
        "CERT-ISSUE-DATE": 8, "STREET-PHYSICAL": 33, "STREET2-PHYSICAL": 33, "CITY-PHYSICAL": 18,
        "STATE-ABBREV-PHYSICAL": 2, "ZIP-CODE-PHYSICAL": 10, "COUNTY-PHYSICAL": 3, "COUNTRY-PHYSICAL": 2,
        "OTHER-NAMES(1)": 50, "OTHER-NAMES(2)": 50, "OTHER-NAMES(3)": 50, "OTHER-NAMES(4)": 50, "OTHER-NAMES(5)": 50,
        "KIT MFR": 30, "KIT MODEL": 20, "MODE S CODE HEX": 10,
    ])

    /// RESERVED.txt: one row per reserved N-number, N-number sequence.
    public static let reserved = FAAColumn.layout([
        "N-NUMBER": 5, "REGISTRANT": 50, "STREET": 33, "STREET2": 33, "CITY": 18, "STATE": 2, "ZIP CODE": 10,
        "RSV DATE": 8, "TR": 2, "EXP DATE": 8, "N-NUM-CHG": 5, "PURGE DATE": 8,
    ])
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
