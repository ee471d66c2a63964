// Fuzz target: evtest text, then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(EvtestDecoder(source: "fuzz.evtest"), data, size)
    return 0
}
