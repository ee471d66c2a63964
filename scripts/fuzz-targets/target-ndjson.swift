// Fuzz target: NDJSON lines (the native format), then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(NDJSONDecoder(source: "fuzz.ndjson"), data, size)
    return 0
}
