import FuzzSupport

/// The bytes as `photo.xmp`, through the export reader the ingest picks for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.readExport(Fuzz.write(start, count, as: "photo.xmp"))
    return 0
}
