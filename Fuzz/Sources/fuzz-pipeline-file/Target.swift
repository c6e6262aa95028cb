import FieldGuidePipeline
import FuzzSupport

/// The pipeline-file loader: YAML, then every definition check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? PipelineDefinition.parse(text, path: "fuzz.yaml")
    return 0
}
