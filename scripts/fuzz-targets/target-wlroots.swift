// Fuzz target: the wlroots source's table of toplevels (toplevels.c), fed the
// events a compositor may send, in any order and for toplevels it never
// announced, with what it lists checked against a model of the protocol.
import CContext

private struct Model {
    var pendingTitle: [UInt8]?, pendingID: [UInt8]?, pendingActive = false
    var title: [UInt8]?, id: [UInt8]?, active = false
}

private func key(_ n: UInt8) -> UnsafeRawPointer {
    // Any distinct non-null addresses stand for the Wayland proxies.
    UnsafeRawPointer(bitPattern: 0x1000 + Int(n % 24) * 16).unsafelyUnwrapped
}

/// A string for the event: its length from the input (up to 2 KiB, past what is
/// kept), then its bytes, NUL cut as a C string is.
private func text(_ input: inout FuzzBytes) -> [UInt8] {
    let length = Int(input.byte()) * 8 + Int(input.byte() % 8)
    var bytes: [UInt8] = []
    for _ in 0..<length where !input.isAtEnd { bytes.append(input.byte()) }
    return Array(bytes.prefix(while: { $0 != 0 }))
}

private func listed<T>(_ field: T) -> [UInt8] {
    withUnsafeBytes(of: field) { Array($0.prefix(while: { $0 != 0 })) }
}

/// What is listed is the model's text, whole or cut (never to more than the field holds).
private func check(_ shown: [UInt8], _ expected: [UInt8]?, room: Int, _ what: String) {
    let whole = expected ?? []
    guard shown.count < room, shown.count <= whole.count, Array(whole.prefix(shown.count)) == shown else {
        fatalError("\(what): listed \(shown.count) bytes that are not a prefix of the \(whole.count) sent")
    }
    // Cut only where the text was too long for the field, and by no more than
    // the start of one UTF-8 sequence (at most 3 bytes) below the room.
    if shown.count < whole.count, whole.count <= room - 1 || shown.count < room - 1 - 3 {
        fatalError("\(what): cut \(whole.count) bytes to \(shown.count)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    guard let table = gm_toplevels_new() else { fatalError("out of memory") }
    defer { gm_toplevels_free(table) }
    var model: [Int: Model] = [:]
    var serials: [Int: UInt64] = [:]
    while !input.isAtEnd {
        let op = input.byte()
        let n = input.byte()
        let k = key(n)
        let id = Int(bitPattern: k)
        switch op % 7 {
        case 0:
            let added = gm_toplevels_add(table, k) == 1
            if added != (model[id] == nil) { fatalError("add of \(id): \(added) with the model \(model[id] == nil ? "empty" : "holding it")") }
            if added { model[id] = Model() }
        case 1:
            let t = text(&input)
            var c = t + [0]
            c.withUnsafeMutableBytes { gm_toplevels_title(table, k, $0.baseAddress?.assumingMemoryBound(to: CChar.self)) }
            model[id]?.pendingTitle = t
        case 2:
            let t = text(&input)
            var c = t + [0]
            c.withUnsafeMutableBytes { gm_toplevels_app_id(table, k, $0.baseAddress?.assumingMemoryBound(to: CChar.self)) }
            model[id]?.pendingID = t
        case 3:
            let count = Int(input.byte() % 6)
            var states: [UInt32] = (0..<count).map { _ in UInt32(input.byte() % 5) }
            gm_toplevels_state(table, k, &states, states.count)
            model[id]?.pendingActive = states.contains(UInt32(GM_TOPLEVEL_STATE_ACTIVATED))
        case 4:
            gm_toplevels_done(table, k)
            if var m = model[id] {
                m.title = m.pendingTitle; m.id = m.pendingID; m.active = m.pendingActive
                model[id] = m
            }
        case 5:
            let removed = gm_toplevels_remove(table, k) == 1
            if removed != (model[id] != nil) { fatalError("remove of \(id): \(removed)") }
            model[id] = nil
        default:
            _ = gm_toplevels_take_changed(table)
        }
        // What is listed is what the model holds, in any order.
        let count = Int(gm_toplevels_count(table))
        if count != model.count { fatalError("\(count) toplevels listed, \(model.count) announced and not closed") }
        var out = [gm_window](repeating: gm_window(), count: 24)
        let total = Int(gm_toplevels_list(table, &out, Int32(out.count)))
        if total != count { fatalError("list says \(total), count \(count)") }
        var handles: Set<UInt64> = []
        for i in 0..<min(total, out.count) {
            guard let listedKey = gm_toplevels_key(table, Int32(i)), let m = model[Int(bitPattern: listedKey)] else {
                fatalError("listed toplevel \(i) is not in the model")
            }
            let w = out[i]
            check(listed(w.title), m.title, room: MemoryLayout.size(ofValue: w.title), "title")
            check(listed(w.id), m.id, room: MemoryLayout.size(ofValue: w.id), "app id")
            if (w.focused != 0) != m.active { fatalError("activation listed \(w.focused), sent \(m.active)") }
            if w.pid != -1 { fatalError("a pid listed from nothing: \(w.pid)") }
            if !handles.insert(w.handle).inserted { fatalError("two toplevels with handle \(w.handle)") }
            let serial = serials[Int(bitPattern: listedKey)]
            if let serial, serial != w.handle { fatalError("a toplevel's handle changed from \(serial) to \(w.handle)") }
            serials[Int(bitPattern: listedKey)] = w.handle
        }
        for gone in serials.keys where model[gone] == nil { serials[gone] = nil }
    }
    return 0
}
