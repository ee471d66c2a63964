import GestureCore
import GestureInput

extension Engine {
    /// Regular files, one after another, as fast as they can be read: deadlines
    /// pass when the input's time passes them.
    func replay(_ sources: [Source]) -> ExitCode {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        // Paced, the replay serves focus, keys and reloads while it waits.
        if options.realtime { pace = RealtimePace(channels: openSideChannels()) }
        for source in sources where fatal == nil {
            guard let file = source.file else { continue }
            let progress = progressConsole.flatMap { ProgressBar(file: file, console: $0) }
            defer { progress?.finish() }
            var bytesDone = 0
            while true {
                let n: Int
                switch feedChunk(of: source, from: file, buffer: buffer, emit: { process($0) }) {
                case .success(let read): n = read
                case .failure(let status): return status
                }
                if n == 0 { break }
                bytesDone += n
                progress?.update(bytesDone: bytesDone, events: source.decoder.eventCount)
                if fatal != nil { return .ok }
            }
            source.decoder.finish { process($0) }
            if let status = reportDiagnostics(source) { return status }
            finish(device: source.index)
            announce(source, atEnd: true)
        }
        finishTimers()
        return .ok
    }

    /// A file's next chunk through its decoder, its frames to `emit`: the
    /// bytes read (0 at its end), or the status that ends the run (a read
    /// error, `--strict` at a malformed line). Between chunks the focus and
    /// stdout's reader are looked at, as the loop would.
    func feedChunk(of source: Source, from file: InputFile, buffer: UnsafeMutableRawBufferPointer,
                   emit: (TouchFrame) -> Void) -> Result<Int, ExitCode> {
        guard let n = file.read(into: buffer) else {
            console.say("gesturemap: \(source.name): read error: \(file.lastErrorDescription)")
            return .failure(.noInput)
        }
        guard n > 0 else { return .success(0) }
        if pace == nil { pollAppFocus() }
        source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), emit: emit)
        output.flush()
        announce(source)
        if let status = reportDiagnostics(source) { return .failure(status) }
        checkOutputReader()
        return .success(n)
    }

    /// Says once how an input is read: under `-v` always; without it only when
    /// its size was guessed (a typical size, udev's hint, the display), so that
    /// whoever sees odd distances knows why and that `--size` sets it.
    func announce(_ source: Source, atEnd: Bool = false) {
        guard !source.announced, atEnd || source.decoder.eventCount > 0 else { return }
        let guessed = source.decoder.converter.origin.isGuess
        guard options.verbose || guessed else { return }
        source.announced = true
        if options.verbose, let auto = source.decoder as? AutoDecoder, let how = auto.formatExplanation { console.say(how) }
        console.say(source.decoder.unitsExplanation)
    }
}
