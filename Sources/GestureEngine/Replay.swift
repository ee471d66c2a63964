import GestureCore
import GestureInput

extension Session {
    /// Regular files, one after another, as fast as they can be read: deadlines
    /// pass when the input's time passes them.
    func replay(_ sources: [Source]) -> ExitCode {
        for source in sources where engine.fatal == nil {
            guard let file = source.file else { continue }
            let progress = engine.progressConsole.flatMap { ProgressBar(file: file, console: $0) }
            defer { progress?.finish() }
            if !isPacing, engine.options.decodesAhead {
                switch replayDecodedAhead(source, from: file, progress: progress) {
                case .read: continue
                case .stopped(let status): return status
                case .unavailable: break
                }
            }
            var bytesDone = 0
            while true {
                let n: Int
                switch feedChunk(of: source, from: file, emit: { frame($0) }) {
                case .success(let read): n = read
                case .failure(let status): return status
                }
                if n == 0 { break }
                bytesDone += n
                progress?.update(bytesDone: bytesDone, events: source.decoder.eventCount)
                if engine.fatal != nil { return .ok }
            }
            source.decoder.finish { frame($0) }
            if let status = engine.reportDiagnostics(source) { return status }
            engine.finish(device: source.index)
            engine.announce(source, atEnd: true)
        }
        engine.finishTimers()
        return .ok
    }

    /// A file's next chunk through its decoder, its frames to `emit`: the
    /// bytes read (0 at its end), or the status that ends the run (a read
    /// error, `--strict` at a malformed line). Between chunks the focus and
    /// stdout's reader are looked at, as the loop would.
    func feedChunk(of source: Source, from file: InputFile, emit: (TouchFrame) -> Void) -> Result<Int, ExitCode> {
        guard let n = file.read(into: buffer) else {
            engine.console.say("gesturemap: \(source.name): read error: \(file.lastErrorDescription)")
            return .failure(.noInput)
        }
        guard n > 0 else { return .success(0) }
        if !isPacing { appFocus.takeWhatArrived() }
        source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), emit: emit)
        engine.output.flush()
        engine.announce(source)
        if let status = engine.reportDiagnostics(source) { return .failure(status) }
        engine.checkOutputReader()
        return .success(n)
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
        let ahead = DecodeAhead(source: source, file: file, verbose: engine.options.verbose, devices: engine.devices)
        guard ahead.start() else { return .unavailable }
        defer { ahead.finish() }
        var frame = TouchFrame(time: 0)
        var bytesDone = 0
        while true {
            let chunk = ahead.next()
            if let error = chunk.readError {
                engine.console.say("gesturemap: \(source.name): read error: \(error)")
                return .stopped(.noInput)
            }
            if chunk.startsRead { appFocus.takeWhatArrived() }
            var named = 0
            for k in 0..<chunk.frameCount {
                if named < chunk.names.count { named = applyNames(of: chunk, from: named, before: k) }
                chunk.load(k, into: &frame)
                engine.process(frame)
            }
            _ = applyNames(of: chunk, from: named, before: chunk.frameCount)
            // The rest of the same read follows in the next chunk.
            guard chunk.endsRead else {
                ahead.recycle(chunk)
                continue
            }
            engine.output.flush()
            // At the end the units are said last, after the device's deadlines, as `replay` does.
            if !chunk.end { for line in chunk.announcement { engine.console.say(line) } }
            if let status = engine.report(chunk.diagnostics, errorCount: chunk.errorCount) { return .stopped(status) }
            if chunk.end {
                engine.finish(device: source.index)
                for line in chunk.announcement { engine.console.say(line) }
                return .read
            }
            engine.checkOutputReader()
            bytesDone += chunk.bytes
            progress?.update(bytesDone: bytesDone, events: chunk.eventCount)
            if engine.fatal != nil { return .stopped(.ok) }
            ahead.recycle(chunk)
        }
    }

    private func applyNames(of chunk: DecodedChunk, from start: Int, before frame: Int) -> Int {
        var i = start
        while i < chunk.names.count, chunk.names[i].before == frame {
            engine.devices.apply(chunk.names[i].name, for: chunk.names[i].device)
            i += 1
        }
        return i
    }
}
