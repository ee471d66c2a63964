// Fuzz target: what Hyprland's sockets say about the focus (HyprlandFocus).
// The input is the event socket's bytes, cut into chunks where the input says,
// with answers to j/activewindow (or their loss) between the chunks.
@testable import GestureContext
import GestureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let cut = Int(input.byte() % 32) + 1
    let stream = Array(input.rest)
    // The answers are the stream's own lines, so the fuzzer's JSON reaches them.
    let answers = stream.split(separator: 0x0A).map { Array($0) }
    var focus = HyprlandFocus()
    var asking = focus.start().ask
    if !asking { fatalError("no first request") }
    var whole = HyprlandFocus()
    _ = whole.start()
    var offset = 0
    var answer = 0
    while offset < stream.count {
        let end = min(stream.count, offset + cut)
        let step = focus.feed(stream[offset..<end])
        // One request in flight at most: a second is asked for only after the first is answered.
        if step.ask && asking { fatalError("asked twice at offset \(offset)") }
        asking = asking || step.ask
        if asking, stream[offset] & 1 == 1 {
            let text = answer < answers.count ? String(decoding: answers[answer], as: UTF8.self) : ""
            answer += 1
            let next = focus.answered(stream[offset] & 2 == 0 ? (try? JSONValue.parse(text)) : nil)
            asking = next.ask
        }
        offset = end
    }
    if let id = focus.current?.id, id.utf8.contains(0x0A) { fatalError("an id with a newline: \(id.debugDescription)") }
    // With no answers at all, how the bytes were cut changes nothing.
    if answer == 0 {
        _ = whole.feed(stream)
        if whole.current != focus.current { fatalError("cut into \(cut)-byte chunks: \(String(describing: focus.current)) vs whole: \(String(describing: whole.current))") }
    }
    return 0
}
