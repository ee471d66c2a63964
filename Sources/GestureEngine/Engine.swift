import GestureActions
import GestureCore
import GestureInput
import GestureScript

/// One run: sources feed frames to the recognizer core, whose deliveries call
/// the rules' handlers, whose actions reach stdout. One thread, one loop.
public final class Engine: ScriptHost {
    let options: RunOptions
    let console: Console
    let output: LineSink
    private var runtime: ScriptRuntime?
    private var arena = GestureArena(rules: [])
    private var deliveries: [Delivery] = []
    private var seenGeneration = -1
    private var realtimeOrigin: (input: Double, wall: Double)?
    private let devices = DeviceDirectory()
    /// Input names by device index: the fallback for `g.device`.
    private var inputNames: [Int: String] = [:]
    public private(set) var framesProcessed = 0
    public private(set) var gesturesDelivered = 0

    public init(options: RunOptions, console: Console, output: LineSink) {
        self.options = options
        self.console = console
        self.output = output
    }

    // MARK: ScriptHost

    public func emit(line: String) {
        output.write(line: line)
    }

    public func log(_ message: String) {
        console.say(message)
    }

    public func deviceName(_ device: Int) -> String? {
        devices.name(of: device) ?? inputNames[device]
    }

    // MARK: Running

    public func run() -> ExitCode {
        guard let runtime = ScriptRuntime(host: self, options: ScriptOptions(memoryLimit: options.luaMemory)) else {
            console.say("gesturemap: cannot create a Lua state (out of memory?)")
            return .unavailable
        }
        self.runtime = runtime
        do {
            if let path = options.rulesPath {
                try runtime.load(path: path)
            } else {
                try runtime.loadDefaultRules()
            }
        } catch {
            for problem in error.problems { console.say(problem) }
            return .ruleFailure
        }
        if options.verbose {
            console.say("gesturemap: \(runtime.ruleCount) rules from \(options.rulesPath ?? "the built-in defaults")")
        }
        arena.tracing = options.trace
        syncRules()

        let inputs = options.inputs.isEmpty ? ["-"] : options.inputs
        if options.inputs.isEmpty && !InputFile.standardInputIsPiped {
            console.say("gesturemap run: no input; give a file, or pipe events in, as in: gesturemap synth \"two-finger swipe left\" | gesturemap run")
            return .usage
        }
        for (index, name) in inputs.enumerated() {
            let input: InputFile
            if name == "-" {
                input = InputFile(standardInput: ())
            } else {
                do {
                    input = try InputFile(path: name)
                } catch {
                    console.say("gesturemap: \(error.message)")
                    return error == .notFound(name) ? .noInput : .noInput
                }
            }
            let status = replay(input, device: index)
            if status != .ok { return status }
        }
        if options.verbose {
            console.say("gesturemap: \(framesProcessed) frames, \(gesturesDelivered) gestures delivered")
        }
        return .ok
    }

    /// Reads one input to its end.
    private func replay(_ input: InputFile, device: Int) -> ExitCode {
        inputNames[device] = input.name
        var decoder = AutoDecoder(source: input.name, format: options.format, resolution: options.resolution,
                                  transform: options.transform(for: input.name), device: device, directory: devices)
        decoder.stopsAtFirstError = options.strict
        var announced = false
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            if !input.isRegularFile && !input.waitReadable(milliseconds: idleTimeout()) {
                // Nothing came before the next deadline: on a live clock, time
                // has passed all the same (a long press on a still finger).
                decoder.flush { process($0) }
                arena.advance(to: MonotonicClock.now(), into: &deliveries)
                deliver()
                continue
            }
            guard let n = input.read(into: buffer) else {
                console.say("gesturemap: \(input.name): read error: \(input.lastErrorDescription)")
                return .noInput
            }
            if n == 0 { break }
            decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { process($0) }
            if !announced && decoder.eventCount > 0 {
                announced = true
                if options.verbose { console.say(decoder.unitsExplanation) }
            }
            if let status = reportDiagnostics(&decoder) { return status }
            if !input.hasDataReady() { decoder.flush { process($0) } }
        }
        decoder.finish { process($0) }
        if let status = reportDiagnostics(&decoder) { return status }
        arena.finish(into: &deliveries)
        deliver()
        if options.verbose && !announced { console.say(decoder.unitsExplanation) }
        return .ok
    }

    private func reportDiagnostics(_ decoder: inout AutoDecoder) -> ExitCode? {
        guard !decoder.diagnostics.isEmpty else { return nil }
        for d in decoder.diagnostics { console.say(d.description) }
        decoder.diagnostics.removeAll()
        if options.strict && decoder.errorCount > 0 {
            console.say("gesturemap: stopping at malformed input (--strict); fix the line above or run without --strict to skip such lines")
            return .dataError
        }
        return nil
    }

    /// How long a live input may stay quiet before the next deadline is due, in ms;
    /// -1 (wait for input) when there is no deadline or the input keeps its own clock.
    private func idleTimeout() -> Int32 {
        guard let deadline = arena.nextDeadline, framesProcessed > 0, MonotonicClock.isLive(arena.tracker.time) else { return -1 }
        let wait = (deadline - MonotonicClock.now()) * 1000
        return Int32(max(0, min(wait.rounded(.up), 60_000)))
    }

    private func process(_ frame: TouchFrame) {
        framesProcessed += 1
        if options.realtime { pace(until: frame.time) }
        arena.handle(frame, into: &deliveries)
        deliver()
    }

    /// `--realtime`: the replay keeps its recorded pace, deadlines included.
    private func pace(until time: Double) {
        let now = MonotonicClock.now()
        guard let origin = realtimeOrigin else {
            realtimeOrigin = (input: time, wall: now)
            return
        }
        while let deadline = arena.nextDeadline, deadline < time {
            MonotonicClock.sleep(until: origin.wall + (deadline - origin.input))
            arena.advance(to: deadline, into: &deliveries)
            deliver()
        }
        MonotonicClock.sleep(until: origin.wall + (time - origin.input))
    }

    private func deliver() {
        if options.trace && !arena.traceLines.isEmpty {
            for line in arena.traceLines { console.say("trace: " + line) }
            arena.traceLines.removeAll()
        }
        guard !deliveries.isEmpty, let runtime else { return }
        for delivery in deliveries {
            gesturesDelivered += 1
            runtime.dispatch(delivery)
        }
        deliveries.removeAll(keepingCapacity: true)
        syncRules()
    }

    /// Hands the core the rules as they are now, when the script changed them.
    private func syncRules() {
        guard let runtime, runtime.generation != seenGeneration else { return }
        seenGeneration = runtime.generation
        arena.replaceRules(runtime.coreRules, thresholds: runtime.thresholds)
    }
}
