import FuzzSupport

/// The bytes as `captures.csv`, through the export reader the ingest picks for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.readExport(Fuzz.write(start, count, as: "captures.csv"))
    return 0
}
