// Fuzz target: how the X11 source finds the focused window (X11FocusQuery),
// answered as any X server, or any program setting its own window's
// properties, could: values of any format and size, trees of any shape,
// refusals, and focus changes in the middle of a lookup.
@testable import GestureContext

/// A value as a hostile window may set it: format 8, 16 or 32 (or another),
/// of any length up to what the backend copies (4 KiB).
private func value(_ input: inout FuzzBytes) -> X11FocusQuery.Value? {
    let shape = input.byte()
    if shape % 5 == 0 { return nil }
    let formats: [UInt8] = [8, 32, 16, 8, 0, 8, 32, 7]
    let length = Int(input.byte()) * (shape & 0x80 != 0 ? 16 : 1)
    var bytes: [UInt8] = []
    for _ in 0..<min(length, 4096) where !input.isAtEnd { bytes.append(input.byte()) }
    return X11FocusQuery.Value(format: formats[Int(shape >> 3) % formats.count], bytes: bytes)
}

private func answer(to request: X11FocusQuery.Request, _ input: inout FuzzBytes) -> X11FocusQuery.Answer {
    let choice = input.byte()
    // The window went away meanwhile: any request may be refused.
    if choice % 11 == 0 { return .refused }
    switch request {
    case .property: return .property(value(&input))
    case .inputFocus: return .focus(window: UInt32(input.byte() % 8))
    case .tree:
        let parent = UInt32(input.byte() % 8)
        let count = Int(input.byte())
        // The backend copies at most 256 children.
        return .tree(parent: parent, children: (0..<min(count, 256)).map { _ in UInt32(input.byte() % 8) })
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let root: UInt32 = 1 + UInt32(input.byte() % 3)
    var query = X11FocusQuery(root: root)
    var owed: [X11FocusQuery.Request] = []
    var answersThisLookup = 0
    func take(_ step: X11FocusQuery.Step) {
        if let outcome = step.outcome {
            // A lookup ends only once every request of it is answered.
            if !owed.isEmpty { fatalError("an outcome with \(owed.count) requests unanswered") }
            if case .focused(let window, let app) = outcome {
                if window == 0 || window == root { fatalError("focused window \(window) (root \(root))") }
                if let pid = app.pid, pid <= 0 || pid > Int(Int32.max) { fatalError("pid \(pid)") }
                if app.title.utf8.contains(0) { fatalError("a title with a NUL") }
            }
            answersThisLookup = 0
        }
        // One request, or one batch, at a time: nothing new is asked while answers are owed.
        if !step.requests.isEmpty, !owed.isEmpty { fatalError("asked \(step.requests) with \(owed.count) still owed") }
        owed.append(contentsOf: step.requests)
        if owed.count > X11FocusQuery.childLimit + 4 { fatalError("\(owed.count) requests owed at once") }
    }
    take(query.changed())
    while !input.isAtEnd {
        if input.byte() % 7 == 0 {
            take(query.changed())
            continue
        }
        guard let request = owed.first else {
            take(query.answered(.refused))
            if query.isAsking { fatalError("asking with nothing owed") }
            take(query.changed())
            continue
        }
        owed.removeFirst()
        take(query.answered(answer(to: request, &input)))
        answersThisLookup += 1
        // Active window, focus, its class, its tree, 64 children's classes, the
        // parent's class and tree, 64 more, then 4 properties: no lookup goes on past that.
        if answersThisLookup > 4 + 2 * (X11FocusQuery.childLimit + 2) + 4 {
            fatalError("a lookup still asking after \(answersThisLookup) answers")
        }
        if query.isAsking != !owed.isEmpty { fatalError("asking: \(query.isAsking), owed: \(owed.count)") }
    }
    return 0
}
