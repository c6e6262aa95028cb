import FuzzSupport

/// The bytes as `track.gpx`, through the export reader the ingest picks for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    Fuzz.readExport(Fuzz.write(start, count, as: "track.gpx"))
    return 0
}
