import FieldGuideBirds
import FuzzSupport
import Foundation

/// The JSON parser on the bytes, then the seed validator on the same bytes as a bird database.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? JSONParser.parse([UInt8](UnsafeRawBufferPointer(start: start, count: count)))
    let path = Fuzz.write(start, count, as: "bird_database.json")
    _ = try? SeedValidator().validate(paths: [path])
    return 0
}
