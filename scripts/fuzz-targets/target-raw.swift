// Fuzz target: raw struct input_event records (a device node, a file, a pipe), then the recognizer core.
import GestureInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(RawEventDecoder(source: "fuzz.raw"), data, size)
    return 0
}
