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
            if pace == nil, options.decodesAhead {
                switch replayDecodedAhead(source, from: file, progress: progress) {
                case .read: continue
                case .stopped(let status): return status
                case .unavailable: break
                }
            }
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
        for line in Engine.announcement(of: source, verbose: options.verbose, atEnd: atEnd) { console.say(line) }
    }

    /// What `announce` says, once; from whichever thread has the decoder.
    static func announcement(of source: Source, verbose: Bool, atEnd: Bool) -> [String] {
        guard !source.announced, atEnd || source.decoder.eventCount > 0 else { return [] }
        let guessed = source.decoder.converter.origin.isGuess
        guard verbose || guessed else { return [] }
        source.announced = true
        var lines: [String] = []
        if verbose, let auto = source.decoder as? AutoDecoder, let how = auto.formatExplanation { lines.append(how) }
        lines.append(source.decoder.unitsExplanation)
        return lines
    }

    enum FileReplay {
        case read
        case stopped(ExitCode)
        /// No second thread: the file is read on this one.
        case unavailable
    }

    /// One file decoded on a second thread while this one handles its frames
    /// (DecodeAhead): the same frames, lines and messages, in the same order,
    /// as `feedChunk` gives them, the file's end included.
    func replayDecodedAhead(_ source: Source, from file: InputFile, progress: ProgressBar?) -> FileReplay {
        let ahead = DecodeAhead(source: source, file: file, verbose: options.verbose, devices: devices)
        guard ahead.start() else { return .unavailable }
        defer { ahead.finish() }
        var frame = TouchFrame(time: 0)
        var bytesDone = 0
        while true {
            let chunk = ahead.next()
            if let error = chunk.readError {
                console.say("gesturemap: \(source.name): read error: \(error)")
                return .stopped(.noInput)
            }
            if chunk.startsRead { pollAppFocus() }
            var named = 0
            for k in 0..<chunk.frameCount {
                if named < chunk.names.count { named = applyNames(of: chunk, from: named, before: k) }
                chunk.load(k, into: &frame)
                process(frame)
            }
            _ = applyNames(of: chunk, from: named, before: chunk.frameCount)
            // The rest of the same read follows in the next chunk.
            guard chunk.endsRead else {
                ahead.recycle(chunk)
                continue
            }
            output.flush()
            // At the end the units are said last, after the device's deadlines, as `replay` does.
            if !chunk.end { for line in chunk.announcement { console.say(line) } }
            if let status = report(chunk.diagnostics, errorCount: chunk.errorCount) { return .stopped(status) }
            if chunk.end {
                finish(device: source.index)
                for line in chunk.announcement { console.say(line) }
                return .read
            }
            checkOutputReader()
            bytesDone += chunk.bytes
            progress?.update(bytesDone: bytesDone, events: chunk.eventCount)
            if fatal != nil { return .stopped(.ok) }
            ahead.recycle(chunk)
        }
    }

    private func applyNames(of chunk: DecodedChunk, from start: Int, before frame: Int) -> Int {
        var i = start
        while i < chunk.names.count, chunk.names[i].before == frame {
            devices.apply(chunk.names[i].name, for: chunk.names[i].device)
            i += 1
        }
        return i
    }
}
