// Fuzz target: any format, told from the first bytes (what run does without --format), then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(AutoDecoder(source: "fuzz.input"), data, size)
    return 0
}
