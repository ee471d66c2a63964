// Fuzz target: libinput debug-events lines, then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(LibinputDecoder(source: "fuzz.libinput"), data, size)
    return 0
}
