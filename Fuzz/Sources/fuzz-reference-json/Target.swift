import FieldGuideFAA
import FuzzSupport

/// The manufacturer index's reference files: the ICAO type designators and the Mode S
/// registrations (both JSON objects of arrays), each read from the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = Fuzz.write(start, count, as: "reference.json")
    if let types = try? ICAOTypeTable(path: path) { _ = (types.all.first?.name, types["B738"]?.wakeClass) }
    if let modes = try? ModeSTypeTable(path: path) { _ = modes.designator(address: 0xA0_0001) }
    return 0
}
