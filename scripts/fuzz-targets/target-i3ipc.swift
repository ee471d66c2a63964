// Fuzz target: what sway's or i3's IPC socket says about the focus (I3Focus,
// and I3IPC's framing). The first byte picks the mode: raw bytes as they came
// from the socket, or records (a type byte, then JSON up to a NUL) framed here,
// so the fuzzer's JSON reaches the tree and event readers. Chunked where the
// input says; cut differently, the same bytes give the same focus; each
// message makes at most one request.
@testable import GestureContext
import GestureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let mode = input.byte()
    let cut = Int((mode >> 1) % 64) + 1
    var stream: [UInt8] = []
    let rest = Array(input.rest)
    if mode & 1 == 0 {
        stream = rest
    } else {
        for record in rest.split(separator: 0, omittingEmptySubsequences: false) where !record.isEmpty {
            let kinds: [UInt32] = [4, 2, I3IPC.eventBit | 3, I3IPC.eventBit | 0, I3IPC.eventBit | 6, 1]
            let type = kinds[Int(record[record.startIndex]) % kinds.count]
            stream += I3IPC.encode(type, String(decoding: record.dropFirst(), as: UTF8.self))
        }
    }
    // Each message the compositor sends makes at most one request: no loop
    // of requests and replies can grow.
    var messages = 0
    var framing = stream
    while (try? I3IPC.next(&framing)) != nil { messages += 1 }
    func run(_ chunk: Int) -> (AppInfo?, String?) {
        var focus = I3Focus(path: "fuzz")
        _ = focus.start(at: 0)
        var offset = 0
        var trees = 0
        defer { if trees > messages { fatalError("\(trees) GET_TREE for \(messages) messages") } }
        do {
            while offset < stream.count {
                let end = min(stream.count, offset + chunk)
                let step = try focus.feed(Array(stream[offset..<end]), at: 0)
                trees += step.send.filter { $0.0 == .getTree }.count
                offset = end
            }
        } catch {
            return (focus.current, error.message)
        }
        return (focus.current, nil)
    }
    let cutUp = run(cut)
    let whole = run(max(stream.count, 1))
    if cutUp.0 != whole.0 || cutUp.1 != whole.1 {
        fatalError("cut into \(cut)-byte chunks: \(cutUp) vs whole: \(whole)")
    }
    return 0
}
