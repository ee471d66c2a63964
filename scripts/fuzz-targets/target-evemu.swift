// Fuzz target: evemu-record text, then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(EvemuDecoder(source: "fuzz.evemu"), data, size)
    return 0
}
