import CLuaShim
import GestureCore

/// `pointer.move/press/release/click/scroll` and `touchpad.begin/move/finish`:
/// every number checked here, so the host sends nothing for a bad one.
extension ScriptRuntime {
    func pointerMove(_ stack: LuaView) -> Int32 {
        switch amounts(stack, "pointer.move", unit: "mm", limit: PointerLimits.maxMove, example: "pointer.move(g.dx - last_dx, g.dy - last_dy)") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let (dx, dy)): return send(stack, .move(dx: dx, dy: dy))
        }
    }

    func pointerScroll(_ stack: LuaView) -> Int32 {
        switch amounts(stack, "pointer.scroll", unit: "notches", limit: PointerLimits.maxScroll, example: "pointer.scroll(0, 1) (one notch down)") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let (dx, dy)): return send(stack, .scroll(dx: dx, dy: dy))
        }
    }

    func pointerPress(_ stack: LuaView) -> Int32 {
        switch button(stack, "pointer.press") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let button): return send(stack, .press(button))
        }
    }

    func pointerRelease(_ stack: LuaView) -> Int32 {
        let which: PointerButton
        switch button(stack, "pointer.release") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let button): which = button
        }
        var after: Double?
        switch stack.type(at: 2) {
        case .nil, .none: break
        case .table:
            let type = stack.rawField(2, "after")
            let seconds = stack.number(at: -1)
            stack.pop()
            guard type == .nil || type == .number else {
                return raise(stack, "pointer.release(\"\(which.rawValue)\", { after = ... }): after is seconds, a number")
            }
            if type == .number {
                guard let seconds, seconds.isFinite, seconds >= 0, seconds <= PointerLimits.maxLinger else {
                    return raise(stack, "pointer.release(\"\(which.rawValue)\", { after = \(number(seconds ?? .nan)) }): after is 0 to \(number(PointerLimits.maxLinger)) seconds")
                }
                after = seconds > 0 ? seconds : nil
            }
        default:
            return raise(stack, "pointer.release(\"\(which.rawValue)\", options): options is a table such as { after = 0.5 }, not a \(stack.type(at: 2).name)")
        }
        return send(stack, .release(which, after: after), always: true)
    }

    func pointerClick(_ stack: LuaView) -> Int32 {
        let which: PointerButton
        switch button(stack, "pointer.click") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let button): which = button
        }
        var count = 1
        switch stack.type(at: 2) {
        case .nil, .none: break
        default:
            guard let n = stack.integer(at: 2), n >= 1, n <= PointerLimits.maxClicks else {
                return raise(stack, "pointer.click(\"\(which.rawValue)\", count): count is 1 to \(PointerLimits.maxClicks) clicks (2 for a double click), not \(stack.number(at: 2).map(number) ?? "a \(stack.type(at: 2).name)")")
            }
            count = n
        }
        return send(stack, .click(which, count: count))
    }

    func touchpadBegin(_ stack: LuaView) -> Int32 {
        guard let fingers = stack.integer(at: 1), fingers >= 2, fingers <= 5 else {
            let given = stack.number(at: 1).map(number) ?? "a \(stack.type(at: 1).name)"
            return raise(stack, "touchpad.begin(fingers): fingers is 2 to 5 (2 scrolls, 3 and 4 are the desktop's swipes), not \(given)")
        }
        return send(stack, touchpad: .begin(fingers: fingers))
    }

    func touchpadMove(_ stack: LuaView) -> Int32 {
        switch amounts(stack, "touchpad.move", unit: "mm", limit: PointerLimits.maxMove, example: "touchpad.move(g.dx - last_dx, g.dy - last_dy)") {
        case .failure(let error): return raise(stack, error.message)
        case .success(let (dx, dy)): return send(stack, touchpad: .move(dx: dx, dy: dy))
        }
    }

    func touchpadFinish(_ stack: LuaView) -> Int32 {
        send(stack, touchpad: .end, always: true)
    }

    // MARK: Checks

    private func amounts(_ stack: LuaView, _ name: String, unit: String, limit: Double, example: String) -> Result<(Double, Double), PointerArgumentError> {
        guard let dx = stack.number(at: 1), let dy = stack.number(at: 2) else {
            let shown = [1, 2].map { stack.number(at: $0).map(number) ?? "a \(stack.type(at: $0).name)" }.joined(separator: ", ")
            return .failure(PointerArgumentError("\(name)(dx, dy) takes two numbers (\(unit)), as in \(example); it got \(shown)"))
        }
        guard dx.isFinite, dy.isFinite else {
            return .failure(PointerArgumentError("\(name)(\(number(dx)), \(number(dy))): the amounts must be finite numbers of \(unit); nothing was sent"))
        }
        guard Swift.abs(dx) <= limit, Swift.abs(dy) <= limit else {
            return .failure(PointerArgumentError("\(name)(\(number(dx)), \(number(dy))): at most \(number(limit)) \(unit) a call; nothing was sent (is the amount in \(unit)?)"))
        }
        return .success((dx, dy))
    }

    private func button(_ stack: LuaView, _ name: String) -> Result<PointerButton, PointerArgumentError> {
        switch stack.type(at: 1) {
        case .nil, .none: return .success(.left)
        default:
            if let text = stack.string(at: 1, limit: 16), let button = PointerButton(rawValue: text) { return .success(button) }
            return .failure(PointerArgumentError("\(name)(button): button is \"left\", \"right\" or \"middle\", not \(stack.shown(at: 1))"))
        }
    }

    // MARK: Sending

    /// `always`: a release or a lift, which the per-instant budget never holds back.
    private func send(_ stack: LuaView, _ request: PointerRequest, always: Bool = false) -> Int32 {
        if let refused = refusedWhileLoading(stack, request.callName) { return refused }
        return perform(stack, .pointer, always: always) { host, origin throws(HostActionError) in try host.pointer(request, origin: origin) }
    }

    private func send(_ stack: LuaView, touchpad request: TouchpadRequest, always: Bool = false) -> Int32 {
        if let refused = refusedWhileLoading(stack, request.callName) { return refused }
        return perform(stack, .touchpad, always: always) { host, origin throws(HostActionError) in try host.touchpad(request, origin: origin) }
    }

    private func perform(_ stack: LuaView, _ action: HostActionError.Action, always: Bool,
                         _ body: (any ScriptHost, String) throws(HostActionError) -> Void) -> Int32 {
        guard always || withinBudget(stack) else { return 0 }
        do throws(HostActionError) {
            guard let host else { throw .unavailable(action) }
            try body(host, position(stack, level: 1))
        } catch {
            return raise(stack, error.description)
        }
        return 0
    }

    /// A handler that loops cannot flood the desktop: past the budget, calls
    /// at this input instant are dropped, and the first dropped one says so.
    private func withinBudget(_ stack: LuaView) -> Bool {
        timers.instant.pointerPackets += 1
        guard timers.instant.pointerPackets > PointerLimits.packetsPerInstant else { return true }
        if timers.instant.pointerPackets == PointerLimits.packetsPerInstant + 1, !timers.pointerBudgetReported {
            timers.pointerBudgetReported = true
            log("\(position(stack, level: 1)): pointer and touchpad: \(PointerLimits.packetsPerInstant) calls at this input instant already, the most there may be; the rest of that instant's are dropped, here and at any instant after (releases and lifts still go through; said once)")
        }
        return false
    }
}

/// A message for the rule author about a `pointer.*` or `touchpad.*` call.
struct PointerArgumentError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
