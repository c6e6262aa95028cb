import FuzzSupport

/// The bytes as `captures.plist`, through the export reader the ingest picks for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.readExport(Fuzz.write(start, count, as: "captures.plist"))
    return 0
}
