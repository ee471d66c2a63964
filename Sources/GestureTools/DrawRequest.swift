import GestureEngine
import GestureActions
import GestureCore

/// `gesturemap draw`: replays an input through the rules (as `run --dry-run`
/// would) and pictures its touch sequences.
public struct DrawRequest {
    public var options: RunOptions
    /// 1-based; nil draws every sequence.
    public var sequence: Int?

    public init(options: RunOptions, sequence: Int? = nil) {
        self.options = options.forReplayTool
        self.sequence = sequence
    }

    public enum Failure: Error {
        case run(ExitCode)
        case noSuchSequence(asked: Int, count: Int)
    }

    /// Without `--sequence`, at most this many panels: past them an SVG is too
    /// big to look at, and too big to keep while the replay goes on.
    public static let mostPanels = 100

    /// The SVG, or why there is none. Messages of the run go to `console`.
    public func render(console: Console) -> Result<String, Failure> {
        var panels: [SequenceDrawing.Panel] = []
        var count = 0
        let session = ExplainSession { explained in
            count = explained.number
            if let wanted = sequence {
                guard explained.number == wanted else { return true }
            } else {
                guard panels.count < Self.mostPanels else { return true }
            }
            let misses = DrawMisses.of(explained)
            panels.append(SequenceDrawing.Panel(number: explained.number, sequence: Self.firstEvents(of: explained.captured),
                                                misses: misses.shown, moreMisses: misses.more))
            return true
        } tellPress: { press in
            // A mouse's presses are drawn beside the sequences, not chosen by --sequence.
            guard sequence == nil, panels.count < Self.mostPanels else { return true }
            panels.append(Self.panel(press))
            return true
        }
        guard let engine = Engine(options: options, console: console, output: CollectingSink()) else { return .failure(.run(.unavailable)) }
        engine.observer = session
        engine.traceForObserver = true
        let status = engine.run()
        guard status == .ok else { return .failure(.run(status)) }
        session.finish(engine)
        if let wanted = sequence, panels.isEmpty { return .failure(.noSuchSequence(asked: wanted, count: count)) }
        if sequence == nil, count > panels.count {
            console.say("gesturemap draw: drew sequences 1 to \(panels.count) of \(count); draw another with --sequence N")
        }
        let input = options.inputs.first.map(baseName) ?? "standard input"
        let rules = options.rulesPath.map(baseName) ?? "the built-in rules"
        return .success(SequenceDrawing(panels: panels, title: "\(input) · rules: \(rules)").svg())
    }

    /// A mouse's press as a panel: the pointer's path from the press, and what it was read as.
    static func panel(_ p: Explanation.Press) -> SequenceDrawing.Panel {
        let m = p.press
        var path = CapturedPath(id: 0)
        for point in m.path { path.append(Vector(point.x, point.y), at: point.time) }
        path.ending = .lifted
        let sequence = CapturedSequence(device: m.device, deviceName: m.deviceName, surface: nil, start: m.start, end: m.end, paths: [path])
        var panel = SequenceDrawing.Panel(number: p.number, sequence: sequence)
        var taken = false
        if case .taken = m.outcome { taken = true }
        if case .chord(_, let rule) = m.outcome, rule != nil { taken = true }
        if case .clicked(let rule) = m.outcome, rule != nil { taken = true }
        panel.press = (m.button, Explanation.words(p), taken)
        return panel
    }

    /// One line per gesture: its first event (a pan's `began`, a swipe's
    /// recognition), not every phase a table handler was sent.
    static func firstEvents(of sequence: CapturedSequence) -> CapturedSequence {
        var s = sequence
        s.gestures = sequence.gestures.filter(\.event.isFirstOfGesture)
        return s
    }
}
